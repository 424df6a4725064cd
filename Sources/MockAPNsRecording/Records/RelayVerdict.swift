import DeviceSimulation
/// What the upstream made of a relayed push, as the record keeps it beside the mock's own verdict
/// (`relay: {status, reason, apns_id, apns_unique_id, timestamp, duration_us, error, skipped}` in its JSON).
public struct RelayVerdict: Sendable, Equatable {
    /// The upstream's HTTP status; `503` when it could not be reached (see `error`), 0 when not relayed.
    public var status: Int
    /// The upstream's reason for a rejection (or `ServiceUnavailable` when unreachable).
    public var reason: String?
    /// The `apns-id` the upstream answered with.
    public var apnsID: String?
    /// The `apns-unique-id` the upstream answered with (development environment).
    public var apnsUniqueID: String?
    /// The upstream's 410 timestamp (milliseconds since 1970).
    public var timestamp: Int64?
    /// Time spent upstream, in microseconds.
    public var durationMicros: Int64
    /// Why the upstream gave no answer (connect, TLS, timeout, connection lost, relay full): the sender got `status`
    /// from the relay itself. Nil when the upstream answered.
    public var error: String?
    /// Why the push was not relayed at all (the mock rejected it, a fault fired, not a device push). Nil when relayed.
    public var skipped: String?

    /// Makes a verdict.
    public init(status: Int, reason: String? = nil, apnsID: String? = nil, apnsUniqueID: String? = nil,
                timestamp: Int64? = nil, durationMicros: Int64 = 0, error: String? = nil, skipped: String? = nil) {
        self.status = status
        self.reason = reason
        self.apnsID = apnsID
        self.apnsUniqueID = apnsUniqueID
        self.timestamp = timestamp
        self.durationMicros = durationMicros
        self.error = error
        self.skipped = skipped
    }

    /// A push the relay did not send, and why.
    public static func notRelayed(_ why: String) -> RelayVerdict {
        RelayVerdict(status: 0, skipped: why)
    }

    /// Whether the upstream answered (neither skipped nor failed), so its answer can be compared with the mock's.
    public var upstreamAnswered: Bool { skipped == nil && error == nil }

    /// The lint-style finding id a disagreement between the two verdicts gets.
    public static let disagreementFindingID = "relay-disagreement"
}

extension RelayVerdict {
    /// The `relay-disagreement` finding when the upstream answered with another status or reason than the mock.
    public static func disagreement(mock: RecordedRequest.Response, upstream: RelayVerdict) -> LintFinding? {
        guard upstream.upstreamAnswered, mock.status != upstream.status || mock.reason != upstream.reason else { return nil }
        func spelled(_ status: Int, _ reason: String?) -> String { reason.map { "\(status) \($0)" } ?? "\(status)" }
        return LintFinding(
            id: RelayVerdict.disagreementFindingID, severity: .warning,
            message: "The mock answered \(spelled(mock.status, mock.reason)) but the upstream answered "
                + "\(spelled(upstream.status, upstream.reason)): a gap in the mock's fidelity or device registry, or "
                + "a change in the upstream's behaviour; check the device's state and the request's headers.",
            path: "$")
    }
}
