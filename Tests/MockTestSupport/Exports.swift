// Test targets that import MockTestSupport get the model's support (conformance cases, device scenarios,
// credentials, repository paths, the peer runner) with it.
@_exported import ModelTestSupport
