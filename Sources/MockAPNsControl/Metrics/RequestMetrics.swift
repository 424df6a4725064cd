import MockAPNs
import Prometheus
import Synchronized

/// Prometheus series for the mock's traffic, fed from the recorder: requests by status, by reason and
/// by push type, a latency histogram (from each record's `duration_us`), open connections (the
/// pipeline's count, read at scrape time), and the `--record` file's health (read at scrape time: whether it is
/// unwritable, how often it failed, records held for it and records lost).
///
/// Records already in the recorder when ``start()`` runs are counted too, so `/metrics` agrees with
/// `/api/v1/stats` whenever the control plane was started.
final class RequestMetrics: Sendable {
    /// The registry `/metrics` prints.
    let registry = PrometheusCollectorRegistry()

    /// Latency buckets in seconds: 100 µs … 5 s.
    static let latencyBuckets: [Double] = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5]

    private let recorder: Recorder
    private let openConnections: @Sendable () -> Int
    private let connectionsGauge: Gauge
    private let total: Counter
    private let latency: ValueHistogram
    private let feeder = Locked<(task: Task<Void, Never>?, counted: UInt64)>((nil, 0))
    private let fileUnwritable: Gauge
    private let fileHeld: Gauge
    private let fileFailures: Counter
    private let recordsLost: Counter
    /// The file status's failures and losses already added to the counters (they only grow).
    private let fileReported = Locked<(failures: Int, lost: Int)>((0, 0))

    /// Follows `recorder`; `openConnections` is read at each scrape.
    init(recorder: Recorder, openConnections: @escaping @Sendable () -> Int) {
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
    }

    /// Counts what is recorded already and follows the recorder from now on. Each record counts once,
    /// however often the control plane is started and stopped.
    func start() {
        let live = recorder.subscribe(lint: false)   // counters read status, reason and push type only
        let existing = recorder.records(matching: RecordFilter())
        let countedBefore = feeder.withLock { $0.counted }
        for record in existing where record.seq > countedBefore { observe(record) }
        // Everything up to here is counted; live records may arrive slightly out of order, so the
        // feed only skips what the snapshot already covered.
        let threshold = max(countedBefore, existing.map(\.seq).max() ?? 0)
        let task = Task { [self] in
            for await record in live where record.seq > threshold {
                observe(record)
                feeder.withLock { $0.counted = max($0.counted, record.seq) }
            }
        }
        let previous = feeder.withLock { state -> Task<Void, Never>? in
            defer {
                state.task = task
                state.counted = max(state.counted, threshold)
            }
            return state.task
        }
        previous?.cancel()
    }

    /// Stops following the recorder.
    func stop() {
        feeder.withLock { state -> Task<Void, Never>? in
            defer { state.task = nil }
            return state.task
        }?.cancel()
    }

    /// Adds one record to every series.
    func observe(_ record: RecordedRequest) {
        total.increment()
        registry.makeCounter(
            descriptor: Self.name("requests_by_status", "total", "Requests by HTTP status (0 = no response: stall, reset or dropped connection)."),
            labels: [("status", String(record.response.status))]
        ).increment()
        if let reason = record.response.reason {
            registry.makeCounter(
                descriptor: Self.name("requests_by_reason", "total", "Rejected requests by APNs reason."),
                labels: [("reason", reason)]
            ).increment()
        }
        let pushType = record.header("apns-push-type") ?? "none"
        registry.makeCounter(
            descriptor: Self.name("requests_by_push_type", "total", "Requests by apns-push-type header (none = header absent)."),
            labels: [("push_type", pushType)]
        ).increment()
        latency.record(Double(record.durationMicros) / 1_000_000)
    }

    /// `mockapns_<metric>_<unit>` with its help text.
    static func name(_ metric: String, _ unit: String, _ help: String) -> MetricNameDescriptor {
        MetricNameDescriptor(namespace: "mockapns", metricName: metric, unitName: unit, helpText: help)
    }

    /// The Prometheus text exposition of every series.
    func exposition() -> [UInt8] {
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
        return registry.emitToBuffer()
    }
}
