// Test targets that import TestSupport (the wire's support) get the mock's and the model's support, the peer runner
// and the curl helper with it,
@_exported import MockTestSupport
@_exported import PeerSupport
// and the mock's HTTP/2 server, which TestServer starts.
@_exported import MockAPNsHTTP2
