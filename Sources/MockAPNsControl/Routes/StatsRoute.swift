import APNsModel
import Hummingbird
import MockAPNs

/// `GET /api/v1/stats`: totals by status, reason and push type (with `serve --store`, over every instance's records); with `--relay` what the relay did
/// (`"relay": {"relayed", "disagreements", "upstream_errors"}`), and with `--webhook` each webhook's counts
/// (`"webhooks": [{"webhook", "url", "delivered", "retried", "failed", "dropped"}]`).
struct StatsRoute {
    let reader: RecordReader
    var relay: RelayStatistics?
    var webhooks: [WebhookStatistics] = []

    func register(on router: Router<ControlRequestContext>) {
        router.get("api/v1/stats") { _, _ in
            var stats = try await reader.statistics().jsonValue()
            if let relay, case .object(var members) = stats {
                members.append(.init("relay", .object([
                    .init("relayed", .integer(Int64(relay.relayed))), .init("disagreements", .integer(Int64(relay.disagreements))),
                    .init("upstream_errors", .integer(Int64(relay.upstreamErrors))),
                ])))
                stats = .object(members)
            }
            if !webhooks.isEmpty, case .object(var members) = stats {
                members.append(.init("webhooks", .array(webhooks.map { hook in
                    .object([
                        .init("webhook", .integer(Int64(hook.index))), .init("url", .string(hook.target)),
                        .init("delivered", .integer(Int64(hook.delivered))), .init("retried", .integer(Int64(hook.retried))),
                        .init("failed", .integer(Int64(hook.failed))), .init("dropped", .integer(Int64(hook.dropped))),
                    ])
                })))
                stats = .object(members)
            }
            return JSONResponse.make(stats)
        }
    }
}

extension RecorderStatistics {
    /// The `/api/v1/stats` object: `{"total", "accepted", "rejected", "by_status": {"200": n},
    /// "by_reason": {…}, "by_push_type": {…}, "new_connection_per_push": n}`, breakdown keys sorted.
    public func jsonValue() -> JSONValue {
        func counts<Key: Comparable>(_ table: [Key: Int], _ name: (Key) -> String) -> JSONValue {
            .object(table.keys.sorted().map { .init(name($0), .integer(Int64(table[$0] ?? 0))) })
        }
        return .object([
            .init("total", .integer(Int64(total))),
            .init("accepted", .integer(Int64(accepted))),
            .init("rejected", .integer(Int64(rejected))),
            .init("by_status", counts(byStatus) { String($0) }),
            .init("by_reason", counts(byReason) { $0 }),
            .init("by_push_type", counts(byPushType) { $0 }),
            .init("new_connection_per_push", .integer(Int64(newConnectionPerPush))),
        ])
    }
}
