import APNsModel
import Hummingbird
import JSON
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
                let counts = RelayCounts(relayed: relay.relayed, disagreements: relay.disagreements,
                                         upstreamErrors: relay.upstreamErrors)
                members.append(.init("relay", try JSONValueEncoder().encode(counts)))
                stats = .object(members)
            }
            if !webhooks.isEmpty, case .object(var members) = stats {
                let counts = webhooks.map { hook in
                    WebhookCounts(webhook: hook.index, url: hook.target, delivered: hook.delivered, retried: hook.retried,
                                  failed: hook.failed, dropped: hook.dropped)
                }
                members.append(.init("webhooks", try JSONValueEncoder().encode(counts)))
                stats = .object(members)
            }
            return JSONResponse.make(stats)
        }
    }

    /// `"relay": {"relayed", "disagreements", "upstream_errors"}`.
    private struct RelayCounts: Encodable {
        let relayed: Int
        let disagreements: Int
        let upstreamErrors: Int
        enum CodingKeys: String, CodingKey { case relayed, disagreements, upstreamErrors = "upstream_errors" }
    }

    /// One of `"webhooks": [{"webhook", "url", "delivered", "retried", "failed", "dropped"}]`.
    private struct WebhookCounts: Encodable {
        let webhook: Int
        let url: String
        let delivered: Int
        let retried: Int
        let failed: Int
        let dropped: Int
        enum CodingKeys: String, CodingKey { case webhook, url, delivered, retried, failed, dropped }
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
