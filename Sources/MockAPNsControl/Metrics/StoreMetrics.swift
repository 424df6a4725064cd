import MockAPNs
import Prometheus
import Synchronized

/// Prometheus series for the record store (`serve --store`): whether it refuses records, records waiting for it
/// (queued for the writer thread, held after a failed batch), batches committed, failures and records lost. Read at
/// scrape time from the recorder; nothing is registered without a store, so a mock without one shows no such series.
final class StoreMetrics: Sendable {
    private let recorder: Recorder
    private let unwritable: Gauge
    private let queued: Gauge
    private let held: Gauge
    private let batches: Counter
    private let failures: Counter
    private let lost: Counter
    /// What the counters already hold (the recorder's numbers only grow).
    private let reported = Locked<(batches: Int, failures: Int, lost: Int)>((0, 0, 0))

    /// Series for `recorder`'s store in `registry`, or nil when it has none.
    init?(recorder: Recorder, registry: PrometheusCollectorRegistry) {
        guard recorder.storeStatus != nil else { return nil }
        self.recorder = recorder
        unwritable = registry.makeGauge(descriptor: RequestMetrics.name("store", "unwritable",
            "1 while the --store refuses records (database down): successes are answered 500 InternalServerError meanwhile."))
        queued = registry.makeGauge(descriptor: RequestMetrics.name("store_queued", "records",
            "Records waiting for the store writer thread (its bounded queue)."))
        held = registry.makeGauge(descriptor: RequestMetrics.name("store_held", "records",
            "Records held in memory until the --store takes them again."))
        batches = registry.makeCounter(descriptor: RequestMetrics.name("store_batches", "total",
            "Batches committed to the --store (one multi-row insert each)."))
        failures = registry.makeCounter(descriptor: RequestMetrics.name("store_failures", "total",
            "Times the --store started refusing records."))
        lost = registry.makeCounter(descriptor: RequestMetrics.name("store_records_lost", "total",
            "Records that never reached the --store (held past the bound while it refused them, or at exit)."))
    }

    /// Brings the series up to the recorder's store numbers.
    func update() {
        guard let status = recorder.storeStatus else { return }
        let progress = recorder.storeProgress
        unwritable.set(to: status.isUnwritable ? 1 : 0)
        held.set(to: Double(status.waiting))
        queued.set(to: Double(progress.queued))
        let now = (batches: progress.batches, failures: status.failures, lost: status.lost)
        let grown = reported.withLock { reported in
            defer { reported = (max(reported.batches, now.batches), max(reported.failures, now.failures), max(reported.lost, now.lost)) }
            return (max(0, now.batches - reported.batches), max(0, now.failures - reported.failures), max(0, now.lost - reported.lost))
        }
        if grown.0 > 0 { batches.increment(by: Int64(grown.0)) }
        if grown.1 > 0 { failures.increment(by: Int64(grown.1)) }
        if grown.2 > 0 { lost.increment(by: Int64(grown.2)) }
    }
}
