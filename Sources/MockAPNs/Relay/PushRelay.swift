/// Sends a push the mock accepted on to an upstream APNs (Apple's, or another mock) and reports its answer:
/// `serve --relay URL`.
///
/// Declared here and implemented where the sender library may be linked (the `mockapns` executable), so this module
/// and the test kit that embeds it build no client.
public protocol PushRelay: Sendable {
    /// Sends `push` upstream once (the relay never retries: the sender owns retries, as with Apple) and returns the
    /// upstream's answer, or why there is none (`error`, answered `503 ServiceUnavailable`). Never throws: every
    /// failure is an answer the sender gets and the record keeps.
    func relay(_ push: RelayedPush) async -> RelayVerdict
}
