/// Sends a push the mock accepted on to an upstream APNs (Apple's, or another mock) and reports its answer:
/// `serve --relay URL`.
///
/// Declared here and implemented in `MockAPNsRelay` (`APNsClientRelay`, on the sender library), so this module stays
/// free of any client; `mockapns serve` and the test kit's `APNsMock` both link that one.
public protocol PushRelay: Sendable {
    /// Sends `push` upstream once (the relay never retries: the sender owns retries, as with Apple) and returns the
    /// upstream's answer, or why there is none (`error`, answered `503 ServiceUnavailable`). Never throws: every
    /// failure is an answer the sender gets and the record keeps.
    func relay(_ push: RelayedPush) async -> RelayVerdict
}
