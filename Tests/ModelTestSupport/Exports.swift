// Test targets that import ModelTestSupport get the peer runner and the leak check with it (Foundation only).
@_exported import PeerSupport
