// Test targets that import TestSupport get the peer runner and the curl helper with it.
@_exported import PeerSupport
