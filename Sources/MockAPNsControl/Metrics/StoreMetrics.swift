import MockAPNs
import Prometheus
import Support

/// Prometheus series for the record store (`serve --store`): whether it refuses records, records waiting for it
/// (queued for the writer thread, held after a failed batch), batches and records committed, commit latency and
/// batch sizes (histograms), failures, records lost and records pruned by retention. Read at scrape time from the
/// recorder; nothing is registered without a store, so a mock without one shows no such series.
final class StoreMetrics: Sendable {
    private let recorder: Recorder
    private let unwritable: Gauge
    private let queued: Gauge
    private let held: Gauge
    private let batches: Counter
    private let failures: Counter
    private let lost: Counter
    private let records: Counter
    private let pruned: Counter
    private let commitLatency: ValueHistogram
    private let batchSize: ValueHistogram
    /// What the series already hold (the recorder's numbers only grow).
    private let reported = Locked<(progress: RecordStoreProgress, failures: Int, lost: Int)>((RecordStoreProgress(), 0, 0))

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
            "Batches committed to the --store (one COPY each)."))
        records = registry.makeCounter(descriptor: RequestMetrics.name("store_records", "total",
            "Records committed to the --store."))
        pruned = registry.makeCounter(descriptor: RequestMetrics.name("store_pruned_records", "total",
            "Records this instance's retention rounds (--retain-count, --retain-age) pruned from the --store."))
        commitLatency = registry.makeValueHistogram(
            descriptor: RequestMetrics.name("store_commit_duration", "seconds",
                                            "Time from handing a batch to the --store to its commit being answered."),
            buckets: RequestMetrics.latencyBuckets)
        batchSize = registry.makeValueHistogram(
            descriptor: RequestMetrics.name("store_batch_size", "records", "Records per batch committed to the --store."),
            buckets: RecordStoreProgress.batchSizeBounds.map(Double.init))
        failures = registry.makeCounter(descriptor: RequestMetrics.name("store_failures", "total",
            "Times the --store started refusing records."))
        lost = registry.makeCounter(descriptor: RequestMetrics.name("store_records_lost", "total",
            "Records that never reached the --store (held past the bound while it refused them, or at exit)."))
    }

    /// Brings the series up to the recorder's store numbers.
    func update() {
        guard let status = recorder.storeStatus, let progress = recorder.storeProgress else { return }
        unwritable.set(to: status.isUnwritable ? 1 : 0)
        held.set(to: Double(status.waiting))
        queued.set(to: Double(progress.queued))
        reported.withLock { reported in
            let before = reported.progress
            add(progress.batches - before.batches, to: batches)
            add(progress.records - before.records, to: records)
            add(progress.pruned - before.pruned, to: pruned)
            add(status.failures - reported.failures, to: failures)
            add(status.lost - reported.lost, to: lost)
            for index in progress.commitDurations.counts.indices {
                let count = progress.commitDurations.counts[index] - before.commitDurations.counts[index]
                guard count > 0 else { continue }
                let sum = progress.commitDurations.sumsMicros[index] - before.commitDurations.sumsMicros[index]
                let mean = Double(sum) / Double(count) / 1_000_000   // each bucket's mean lies in the bucket
                for _ in 0..<count { commitLatency.record(mean) }
            }
            for index in progress.batchSizes.indices {
                let count = progress.batchSizes[index] - before.batchSizes[index]
                guard count > 0 else { continue }
                // The bucket's bound stands for its batches: exact counts per bucket; the sum is an upper bound
                // (the exact total is store_records_total).
                let size = Double(index < RecordStoreProgress.batchSizeBounds.count
                                  ? RecordStoreProgress.batchSizeBounds[index] : RecordStoreProgress.batchSizeBounds.last! + 1)
                for _ in 0..<count { batchSize.record(size) }
            }
            reported = (progress, max(reported.failures, status.failures), max(reported.lost, status.lost))
        }
    }

    private func add(_ grown: Int, to counter: Counter) {
        if grown > 0 { counter.increment(by: Int64(grown)) }
    }
}
