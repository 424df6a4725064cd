import MockAPNs
import Prometheus
import Support

/// Prometheus series for `serve --webhook`: per webhook (label `webhook`, its position among the flags), records
/// delivered, attempts retried, records failed and records dropped from a full queue. Read at scrape time from
/// each ``WebhookStatistics``; nothing is registered without webhooks.
final class WebhookMetrics: Sendable {
    private struct Series {
        let statistics: WebhookStatistics
        let delivered: Counter
        let retried: Counter
        let failed: Counter
        let dropped: Counter
    }

    private let series: [Series]
    /// What each webhook's counters already hold (the statistics only grow).
    private let reported: Locked<[(delivered: Int, retried: Int, failed: Int, dropped: Int)]>

    /// Series for `webhooks` in `registry`, or nil when there are none.
    init?(webhooks: [WebhookStatistics], registry: PrometheusCollectorRegistry) {
        guard !webhooks.isEmpty else { return nil }
        series = webhooks.map { statistics in
            let labels = [("webhook", String(statistics.index))]
            func counter(_ metric: String, _ help: String) -> Counter {
                registry.makeCounter(descriptor: RequestMetrics.name(metric, "total", help), labels: labels)
            }
            return Series(
                statistics: statistics,
                delivered: counter("webhook_delivered", "Records a --webhook receiver took (answered 2xx)."),
                retried: counter("webhook_retried", "Delivery attempts that failed and were tried again (connection error, timeout, 5xx, 429)."),
                failed: counter("webhook_failed", "Records given up on (a 4xx other than 429, or every attempt failed)."),
                dropped: counter("webhook_dropped", "Records dropped unsent because the webhook's queue was full (the oldest go)."))
        }
        reported = Locked(Array(repeating: (0, 0, 0, 0), count: webhooks.count))
    }

    /// Brings the series up to each webhook's statistics.
    func update() {
        reported.withLock { reported in
            for (index, one) in series.enumerated() {
                let now = (delivered: one.statistics.delivered, retried: one.statistics.retried,
                           failed: one.statistics.failed, dropped: one.statistics.dropped)
                let before = reported[index]
                if now.delivered > before.delivered { one.delivered.increment(by: Int64(now.delivered - before.delivered)) }
                if now.retried > before.retried { one.retried.increment(by: Int64(now.retried - before.retried)) }
                if now.failed > before.failed { one.failed.increment(by: Int64(now.failed - before.failed)) }
                if now.dropped > before.dropped { one.dropped.increment(by: Int64(now.dropped - before.dropped)) }
                reported[index] = (max(before.delivered, now.delivered), max(before.retried, now.retried),
                                   max(before.failed, now.failed), max(before.dropped, now.dropped))
            }
        }
    }
}
