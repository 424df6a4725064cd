import APNsModel
import MockAPNs

/// The `/api/v1/stats` object computed from records (for recordings read with `--file`).
enum StatsSummary {
    /// `{"total", "accepted", "rejected", "by_status", "by_reason", "by_push_type"}`, keys sorted.
    static func json(of records: [RecordedRequest]) -> JSONValue {
        var byStatus: [Int: Int] = [:]
        var byReason: [String: Int] = [:]
        var byPushType: [String: Int] = [:]
        for record in records {
            byStatus[record.response.status, default: 0] += 1
            if let reason = record.response.reason { byReason[reason, default: 0] += 1 }
            if let type = RecordText.header(record, "apns-push-type") { byPushType[type, default: 0] += 1 }
        }
        let accepted = byStatus[200] ?? 0
        func table<Key: Comparable>(_ counts: [Key: Int], _ name: (Key) -> String) -> JSONValue {
            .object(counts.keys.sorted().map { .init(name($0), .integer(Int64(counts[$0] ?? 0))) })
        }
        return .object([
            .init("total", .integer(Int64(records.count))),
            .init("accepted", .integer(Int64(accepted))),
            .init("rejected", .integer(Int64(records.count - accepted))),
            .init("by_status", table(byStatus) { String($0) }),
            .init("by_reason", table(byReason) { $0 }),
            .init("by_push_type", table(byPushType) { $0 }),
        ])
    }
}
