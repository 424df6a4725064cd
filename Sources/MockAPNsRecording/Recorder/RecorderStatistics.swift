import APNsModel

/// Counters over recorded requests, for `GET /api/v1/stats` and `mockapns stats`.
public struct RecorderStatistics: Sendable, Equatable {
    /// Every recorded request.
    public var total = 0
    /// Requests answered 200.
    public var accepted = 0
    /// Requests answered with anything else (or not answered: stalls, resets).
    public var rejected = 0
    /// Count per response status (0 = no response).
    public var byStatus: [Int: Int] = [:]
    /// Count per APNs reason.
    public var byReason: [String: Int] = [:]
    /// Count per `apns-push-type` header value (`none` when absent).
    public var byPushType: [String: Int] = [:]
    /// Records of connections flagged as opening a new connection per push (`new-connection-per-push`).
    public var newConnectionPerPush = 0

    /// Empty counters.
    public init() {}

    /// Adds one record to the counters.
    public mutating func count(_ record: RecordedRequest) {
        count(status: record.response.status, reason: record.response.reason, pushType: record.header("apns-push-type"),
              connectionChurn: record.flagsConnectionChurn)
    }

    /// What was counted after `earlier`, a copy of these counters taken before (counts that did not grow are left
    /// out, as if never counted).
    func since(_ earlier: RecorderStatistics) -> RecorderStatistics {
        var result = RecorderStatistics()
        result.total = total - earlier.total
        result.accepted = accepted - earlier.accepted
        result.rejected = rejected - earlier.rejected
        result.newConnectionPerPush = newConnectionPerPush - earlier.newConnectionPerPush
        result.byStatus = Self.growth(of: byStatus, since: earlier.byStatus)
        result.byReason = Self.growth(of: byReason, since: earlier.byReason)
        result.byPushType = Self.growth(of: byPushType, since: earlier.byPushType)
        return result
    }

    private static func growth<Key>(of counts: [Key: Int], since earlier: [Key: Int]) -> [Key: Int] {
        counts.reduce(into: [:]) { result, entry in
            let grown = entry.value - (earlier[entry.key] ?? 0)
            if grown > 0 { result[entry.key] = grown }
        }
    }

    /// Adds one record, given its response status and reason and its `apns-push-type` header, to the counters.
    mutating func count(status: Int, reason: String?, pushType: String?, connectionChurn: Bool = false) {
        total += 1
        if connectionChurn { newConnectionPerPush += 1 }
        if status == 200 { accepted += 1 } else { rejected += 1 }
        byStatus[status, default: 0] += 1
        if let reason { byReason[reason, default: 0] += 1 }
        byPushType[pushType ?? "none", default: 0] += 1
    }
}
