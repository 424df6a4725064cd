import Synchronization

/// Whether the record file can be written, and what was lost to it: read by the pipeline on every request (one
/// relaxed load) and by `/metrics`, written by the file writer's thread.
public final class RecordFileStatus: Sendable {
    private let unwritable = Atomic<Bool>(false)
    private let failureCount = Atomic<Int>(0)
    private let lostCount = Atomic<Int>(0)
    private let waitingCount = Atomic<Int>(0)

    init() {}

    /// True while the last attempt to write records failed (disk full, I/O error): the pipeline then answers
    /// `500 InternalServerError` instead of a success.
    public var isUnwritable: Bool { unwritable.load(ordering: .relaxed) }
    /// How many times the file became unwritable.
    public var failures: Int { failureCount.load(ordering: .relaxed) }
    /// Records that never reached the file (held in memory past the writer's bound, or still unwritten at close).
    public var lost: Int { lostCount.load(ordering: .relaxed) }
    /// Records held in memory waiting for the file to be writable again.
    public var waiting: Int { waitingCount.load(ordering: .relaxed) }

    func markUnwritable() {
        unwritable.store(true, ordering: .relaxed)
        failureCount.add(1, ordering: .relaxed)
    }

    func markWritable() {
        unwritable.store(false, ordering: .relaxed)
    }

    func addLost(_ count: Int) {
        lostCount.add(count, ordering: .relaxed)
    }

    func setWaiting(_ count: Int) {
        waitingCount.store(count, ordering: .relaxed)
    }
}
