// Test targets that import TestSupport get the peer runner and the curl helper with it.
@_exported import PeerSupport
// and the mock's HTTP/2 server, which TestServer starts.
@_exported import MockAPNsHTTP2
