import MockAPNs
import Prometheus
import Support

/// Prometheus series for `serve --relay`: pushes relayed, disagreements between the mock's verdict and the
/// upstream's, and upstream errors (no answer: the sender got 503). Read at scrape time from the pipeline's
/// ``RelayStatistics``; nothing is registered without a relay.
final class RelayMetrics: Sendable {
    private let statistics: RelayStatistics
    private let relayed: Counter
    private let disagreements: Counter
    private let upstreamErrors: Counter
    /// What the counters already hold (the statistics only grow).
    private let reported = Locked<(relayed: Int, disagreements: Int, errors: Int)>((0, 0, 0))

    /// Series for the relay's `statistics` in `registry`.
    init(statistics: RelayStatistics, registry: PrometheusCollectorRegistry) {
        self.statistics = statistics
        relayed = registry.makeCounter(descriptor: RequestMetrics.name("relay_relayed", "total",
            "Device pushes the mock accepted and sent on to the --relay upstream."))
        disagreements = registry.makeCounter(descriptor: RequestMetrics.name("relay_disagreements", "total",
            "Relayed pushes whose upstream status or reason differed from the mock's own verdict (finding relay-disagreement)."))
        upstreamErrors = registry.makeCounter(descriptor: RequestMetrics.name("relay_upstream_errors", "total",
            "Relayed pushes the upstream did not answer (unreachable, TLS, timeout, connection lost, relay full)."))
    }

    /// Brings the series up to the pipeline's relay statistics.
    func update() {
        let now = (relayed: statistics.relayed, disagreements: statistics.disagreements, errors: statistics.upstreamErrors)
        let grown = reported.withLock { reported in
            defer { reported = (max(reported.relayed, now.relayed), max(reported.disagreements, now.disagreements), max(reported.errors, now.errors)) }
            return (max(0, now.relayed - reported.relayed), max(0, now.disagreements - reported.disagreements), max(0, now.errors - reported.errors))
        }
        if grown.0 > 0 { relayed.increment(by: Int64(grown.0)) }
        if grown.1 > 0 { disagreements.increment(by: Int64(grown.1)) }
        if grown.2 > 0 { upstreamErrors.increment(by: Int64(grown.2)) }
    }
}
