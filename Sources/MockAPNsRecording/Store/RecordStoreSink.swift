import Support

/// A ``RecordStore`` as a ``BatchSink`` (`--store`): hands held records to the store's `append` in chunks of at most
/// `batchLimit` records, one call (one database round trip, one commit) each, awaited on the writer's consuming task.
///
/// A chunk the store refuses (database down, credentials revoked, disk full on its side) stays held and is tried
/// again after 100 ms, with every record that arrives meanwhile, up to `heldLimit` records; batches past that bound
/// are lost. `RecordStore.append` may be retried with the same records: a store that cannot tell whether a failed
/// commit went through sorts that out itself.
// @unchecked Sendable: `held` is touched only by the writer's consuming task (one call at a time); what other threads
// read is immutable or under `counted`'s lock.
final class RecordStoreSink: BatchSink, @unchecked Sendable {
    /// The default `heldLimit`: records kept in memory while the store refuses them.
    static let defaultHeldLimit = 200_000
    /// The default `batchLimit`: records per `append` (one multi-row insert).
    static let defaultBatchLimit = 2_000

    private let store: any RecordStore
    private let heldLimit: Int
    private let batchLimit: Int
    /// Batches committed, their sizes and commit times, and records pruned, for `/metrics`.
    private let counted = Locked(RecordStoreProgress())
    /// Taken from the queue, not yet stored, in `seq` order.
    private var held: [RecordedRequest] = []

    /// A sink appending to `store`.
    init(store: any RecordStore, heldLimit: Int = defaultHeldLimit, batchLimit: Int = defaultBatchLimit) {
        self.store = store
        self.heldLimit = max(1, heldLimit)
        self.batchLimit = max(1, batchLimit)
    }

    /// What the store has committed so far (the queue's depth is the writer's to add).
    var progress: RecordStoreProgress { counted.withLock { $0 } }

    /// Counts records that retention pruned from the store (the pruner runs elsewhere; its numbers are shown here).
    func countPruned(_ records: Int) {
        counted.withLock { $0.pruned += max(0, records) }
    }

    var label: String { store.label }
    var wakeThreshold: Int { batchLimit }
    var heldCount: Int { held.count }
    var pausesAfterFailure: Bool { true }

    func hold(_ batch: [NumberedRecord]) -> Bool {
        guard held.count < heldLimit else { return false }
        held.reserveCapacity(held.count + batch.count)
        for stored in batch { held.append(stored.record) }   // the store fills in lint, off the loops
        return true
    }

    func writeHeld() async -> BatchWriteResult {
        // The whole of `held` (the usual case) is handed over as it is, not copied record by record.
        let chunk = held.count <= batchLimit ? held : Array(held.prefix(batchLimit))
        let started = ContinuousClock.now
        do {
            try await store.append(chunk)
        } catch {
            return .failed(writtenThrough: nil, sentence: "cannot write records to \(store.label): \(store.describe(error)); "
                           + "holding up to \(heldLimit) records in memory and answering 500 InternalServerError instead of "
                           + "success until it takes them")
        }
        if chunk.count == held.count { held = [] } else { held.removeFirst(chunk.count) }
        let took = ContinuousClock.now - started
        let micros = took.components.seconds * 1_000_000 + took.components.attoseconds / 1_000_000_000_000
        counted.withLock { $0.addBatch(size: chunk.count, micros: micros) }
        return .written(through: chunk[chunk.count - 1].seq, count: chunk.count)
    }

    func dropHeld() -> [ClosedRange<UInt64>] {
        guard let first = held.first, let last = held.last else { return [] }
        held = []
        return [first.seq...last.seq]
    }

    func reopen() {}

    func fallingBehindSentence(queueLimit: Int) -> String? { nil }

    func recoveredSentence(written: Int, lost: Int) -> String {
        "\(store.label) takes records again; \(lost) lost so far; answering normally"
    }
}
