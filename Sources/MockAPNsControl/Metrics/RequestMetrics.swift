import MockAPNs
import Prometheus
import Support

/// Prometheus series for the mock's traffic: requests by status, by reason and by push type, a latency histogram,
/// open connections (the pipeline's count), and the `--record` file's health (whether it is unwritable, how often
/// it failed, records held for it and records lost).
///
/// Everything is read at scrape time. The traffic series come from the recorder's ``RecorderTotals``, which it
/// counts under the lock it already takes for each record: following the records one by one through a live
/// subscription cost more than a third of the server's CPU per request. Each scrape adds what the totals grew by
/// since the last one, so the counters only grow (a `clear` of the recorder does not reset them) and include
/// requests recorded before the control plane started.
final class RequestMetrics: Sendable {
    /// The registry `/metrics` prints.
    let registry = PrometheusCollectorRegistry()

    /// Latency buckets in seconds: 100 µs … 5 s (the recorder's ``DurationBuckets``).
    static let latencyBuckets: [Double] = DurationBuckets.boundsMicros.map { Double($0) / 1_000_000 }

    private let recorder: Recorder
    private let openConnections: @Sendable () -> Int
    private let connectionsGauge: Gauge
    private let total: Counter
    private let latency: ValueHistogram
    /// The recorder's totals as of the last scrape (what the series already hold), and the lock that makes
    /// concurrent scrapes add each request once.
    private let reported = Locked(RecorderTotals())
    private let fileUnwritable: Gauge
    private let fileHeld: Gauge
    private let fileFailures: Counter
    private let recordsLost: Counter
    /// The file status's failures and losses already added to the counters (they only grow).
    private let fileReported = Locked<(failures: Int, lost: Int)>((0, 0))
    /// The intake gate's series: whether the listeners hold input now, and how often they did.
    private let intakeHeld: Gauge
    private let intakeHolds: Counter
    private let intakeReported = Locked(0)
    /// The `--store` series, when there is a store.
    private let store: StoreMetrics?
    /// The `--relay` series, when the mock relays.
    private let relay: RelayMetrics?
    /// The `--webhook` series, when there are webhooks.
    private let webhooks: WebhookMetrics?

    /// Follows `recorder`; `openConnections` is read at each scrape; `relay`'s counts, when the mock relays.
    init(recorder: Recorder, openConnections: @escaping @Sendable () -> Int, relay: RelayStatistics? = nil,
         webhooks: [WebhookStatistics] = []) {
        self.recorder = recorder
        self.openConnections = openConnections
        connectionsGauge = registry.makeGauge(descriptor: Self.name("open", "connections", "Connections the mock currently holds open (HTTP/2 and HTTP/1.1)."))
        total = registry.makeCounter(descriptor: Self.name("requests", "total", "Requests the mock answered (or withheld an answer from)."))
        latency = registry.makeValueHistogram(
            descriptor: Self.name("request_duration", "seconds", "Time from a request's arrival to its response being handed to the transport."),
            buckets: Self.latencyBuckets
        )
        fileUnwritable = registry.makeGauge(descriptor: Self.name("record_file", "unwritable",
            "1 while the --record file cannot be written (disk full, I/O error): successes are answered 500 InternalServerError meanwhile."))
        fileHeld = registry.makeGauge(descriptor: Self.name("record_file_held", "records",
            "Records held in memory until the --record file can be written again."))
        fileFailures = registry.makeCounter(descriptor: Self.name("record_file_failures", "total",
            "Times the --record file became unwritable."))
        recordsLost = registry.makeCounter(descriptor: Self.name("records_lost", "total",
            "Records that never reached the --record file (held past the bound while it was unwritable, or at exit)."))
        intakeHeld = registry.makeGauge(descriptor: Self.name("intake", "held",
            "1 while a record writer's queue is full and the APNs listeners read no new requests (back-pressure)."))
        intakeHolds = registry.makeCounter(descriptor: Self.name("intake_holds", "total",
            "Times a full record queue (--record file or --store) made the APNs listeners stop reading until it caught up."))
        store = StoreMetrics(recorder: recorder, registry: registry)
        let registry = self.registry
        self.relay = relay.map { RelayMetrics(statistics: $0, registry: registry) }
        self.webhooks = WebhookMetrics(webhooks: webhooks, registry: registry)
    }

    /// Brings the traffic series up to the recorder's totals.
    func update() {
        reported.withLock { reported in
            let now = recorder.totals
            add(now.statistics, since: reported.statistics)
            add(now.durations, since: reported.durations)
            reported = now
        }
    }

    private func add(_ now: RecorderStatistics, since before: RecorderStatistics) {
        if now.total > before.total { total.increment(by: Int64(now.total - before.total)) }
        for (status, count) in now.byStatus where count > before.byStatus[status] ?? 0 {
            registry.makeCounter(
                descriptor: Self.name("requests_by_status", "total", "Requests by HTTP status (0 = no response: stall, reset or dropped connection)."),
                labels: [("status", String(status))]
            ).increment(by: Int64(count - (before.byStatus[status] ?? 0)))
        }
        for (reason, count) in now.byReason where count > before.byReason[reason] ?? 0 {
            registry.makeCounter(
                descriptor: Self.name("requests_by_reason", "total", "Rejected requests by APNs reason."),
                labels: [("reason", reason)]
            ).increment(by: Int64(count - (before.byReason[reason] ?? 0)))
        }
        for (pushType, count) in now.byPushType where count > before.byPushType[pushType] ?? 0 {
            registry.makeCounter(
                descriptor: Self.name("requests_by_push_type", "total", "Requests by apns-push-type header (none = header absent)."),
                labels: [("push_type", pushType)]
            ).increment(by: Int64(count - (before.byPushType[pushType] ?? 0)))
        }
    }

    /// Adds the durations counted since `before` to the histogram. The library takes one observation at a time,
    /// so each bucket's new durations are added as their mean, as many times as there are: the mean of values in
    /// a bucket lies in that bucket, so every bucket count and the sum come out exact (the sum to rounding).
    private func add(_ now: DurationBuckets, since before: DurationBuckets) {
        for index in now.counts.indices {
            let count = now.counts[index] - before.counts[index]
            guard count > 0 else { continue }
            let sum = now.sumsMicros[index] - before.sumsMicros[index]
            let mean = Double(sum) / Double(count) / 1_000_000
            for _ in 0..<count { latency.record(mean) }
        }
    }

    /// `mockapns_<metric>_<unit>` with its help text.
    static func name(_ metric: String, _ unit: String, _ help: String) -> MetricNameDescriptor {
        MetricNameDescriptor(namespace: "mockapns", metricName: metric, unitName: unit, helpText: help)
    }

    /// The Prometheus text exposition of every series.
    func exposition() -> [UInt8] {
        update()
        connectionsGauge.set(to: Double(openConnections()))
        if let status = recorder.fileStatus {
            fileUnwritable.set(to: status.isUnwritable ? 1 : 0)
            fileHeld.set(to: Double(status.waiting))
            let (failures, lost) = (status.failures, status.lost)
            let (newFailures, newLost) = fileReported.withLock { reported in
                defer { reported = (max(reported.failures, failures), max(reported.lost, lost)) }
                return (max(0, failures - reported.failures), max(0, lost - reported.lost))
            }
            if newFailures > 0 { fileFailures.increment(by: Int64(newFailures)) }
            if newLost > 0 { recordsLost.increment(by: Int64(newLost)) }
        }
        intakeHeld.set(to: recorder.intake.isShut ? 1 : 0)
        let holds = recorder.intake.timesShut
        let newHolds = intakeReported.withLock { reported in
            defer { reported = max(reported, holds) }
            return max(0, holds - reported)
        }
        if newHolds > 0 { intakeHolds.increment(by: Int64(newHolds)) }
        store?.update()
        relay?.update()
        webhooks?.update()
        return registry.emitToBuffer()
    }
}
