import APNsModel
import Hummingbird
import MockAPNs

/// `GET /api/v1/stats`: totals by status, reason and push type.
struct StatsRoute {
    let recorder: Recorder

    func register(on router: Router<ControlRequestContext>) {
        router.get("api/v1/stats") { _, _ in
            JSONResponse.make(Self.json(recorder.statistics))
        }
    }

    /// `{"total", "accepted", "rejected", "by_status": {"200": n}, "by_reason": {…}, "by_push_type": {…}}`, keys sorted.
    static func json(_ statistics: RecorderStatistics) -> JSONValue {
        func counts<Key: Comparable>(_ table: [Key: Int], _ name: (Key) -> String) -> JSONValue {
            .object(table.keys.sorted().map { .init(name($0), .integer(Int64(table[$0] ?? 0))) })
        }
        return .object([
            .init("total", .integer(Int64(statistics.total))),
            .init("accepted", .integer(Int64(statistics.accepted))),
            .init("rejected", .integer(Int64(statistics.rejected))),
            .init("by_status", counts(statistics.byStatus) { String($0) }),
            .init("by_reason", counts(statistics.byReason) { $0 }),
            .init("by_push_type", counts(statistics.byPushType) { $0 }),
        ])
    }
}
