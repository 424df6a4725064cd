import Foundation
import Synchronized

/// Hands records to a ``RecordStore`` in batches from its own thread, so event loops never wait on the store: the
/// ``RecordFileWriter``'s shape, with the store's `append` in place of the file's `pwrite`.
///
/// Loop threads only enqueue (a short lock). The writer thread wakes when signalled and at least every 100 ms, and
/// appends what is pending in batches of at most `batchLimit` records, one `append` call (one database round trip,
/// one commit) each.
///
/// A batch the store refuses (database down, credentials revoked, disk full on its side) is kept and tried again
/// every 100 ms, with every record that arrives meanwhile, up to `heldLimit` records; records past that bound are
/// counted lost. While it fails, `status.isUnwritable` is set (the pipeline answers 500 instead of success), and
/// each change of state is said once on stderr. The queue is bounded as the file writer's is: once `queueLimit`
/// records wait, `enqueue` asks its caller to `waitForRoom` outside its own locks.
final class RecordStoreWriter: Sendable {
    /// The default `queueLimit`: records waiting to be taken by the writer thread.
    static let defaultQueueLimit = 65_536
    /// The default `heldLimit`: records kept in memory while the store refuses them.
    static let defaultHeldLimit = 200_000
    /// The default `batchLimit`: records per `append` (one multi-row insert).
    static let defaultBatchLimit = 2_000

    private struct State {
        var pending: [StoredRecord] = []
        /// `--record-sync`: actions to run once the record numbered `seq` is stored, in `seq` order.
        var completions: [(seq: UInt64, action: RecordFileWriter.Completion)] = []
        var enqueued: UInt64 = 0
        /// Records stored, held for a failing store, or lost: what `flush` waits for.
        var settled: UInt64 = 0
        var closing = false
        var finished = false
        var waitingForRoom = 0
    }

    // `condition` guards `state` (every access below holds it), as in `RecordFileWriter`.
    private let condition = NSCondition()
    private nonisolated(unsafe) var state = State()
    private let store: any RecordStore
    private let queueLimit: Int
    private let heldLimit: Int
    private let batchLimit: Int
    /// Whether each record is stored before it is answered: the writer starts a batch as soon as one arrives.
    let synchronous: Bool
    /// Whether the store takes records, and what was lost.
    let status = RecordFileStatus()
    /// Batches committed, their sizes and commit times, and records pruned, for `/metrics`.
    private let counted = Locked(RecordStoreProgress())

    /// What the writer has committed so far, and what waits in its queue.
    var progress: RecordStoreProgress {
        var progress = counted.withLock { $0 }
        progress.queued = queued
        return progress
    }

    /// Counts records that retention pruned from the store (the pruner runs elsewhere; its numbers are shown here).
    func countPruned(_ records: Int) {
        counted.withLock { $0.pruned += max(0, records) }
    }

    init(store: any RecordStore, synchronous: Bool, queueLimit: Int = defaultQueueLimit,
         heldLimit: Int = defaultHeldLimit, batchLimit: Int = defaultBatchLimit) {
        self.store = store
        self.synchronous = synchronous
        self.queueLimit = max(1, queueLimit)
        self.heldLimit = max(1, heldLimit)
        self.batchLimit = max(1, batchLimit)
        let thread = Thread { [self] in self.run() }
        thread.name = "record-store"   // at most 15 bytes: Linux refuses a longer thread name
        thread.start()
    }

    /// Where the records go, for messages.
    var label: String { store.label }

    /// Records waiting for the writer thread to take them (the bounded queue's depth).
    var queued: Int {
        condition.lock()
        defer { condition.unlock() }
        return state.pending.count
    }

    /// Queues a record (`completion`, if given, runs once it is stored or lost); returns at once. Returns true when
    /// the queue has reached its limit: the caller should `waitForRoom()` once it has let go of its own locks.
    /// The caller enqueues in `seq` order.
    func enqueue(_ record: StoredRecord, completion: RecordFileWriter.Completion? = nil) -> Bool {
        condition.lock()
        state.pending.append(record)
        state.enqueued += 1
        if let completion { state.completions.append((record.seq, completion)) }
        let count = state.pending.count
        condition.unlock()
        if count >= batchLimit || count >= queueLimit || (synchronous && count == 1) { condition.broadcast() }
        return count >= queueLimit
    }

    /// Holds the calling thread while the queue is at its limit, until the writer takes it (or stops).
    func waitForRoom() {
        condition.lock()
        if state.pending.count >= queueLimit && !state.finished {
            state.waitingForRoom += 1
            condition.broadcast()
            while state.pending.count >= queueLimit && !state.finished { condition.wait() }
            state.waitingForRoom -= 1
        }
        condition.unlock()
    }

    /// Blocks until every record enqueued so far is stored, or known unstorable (held or lost).
    func flush() {
        condition.lock()
        let target = state.enqueued
        condition.broadcast()
        while state.settled < target && !state.finished { condition.wait() }
        condition.unlock()
    }

    /// Flushes, tries held records one last time, and stops the writer thread. Idempotent.
    func close() {
        condition.lock()
        state.closing = true
        condition.broadcast()
        while !state.finished { condition.wait() }
        condition.unlock()
    }

    private func run() {
        var held: [RecordedRequest] = []   // taken from the queue, not yet stored, in `seq` order
        var storedSeq: UInt64 = 0
        var lostSeqs: [ClosedRange<UInt64>] = []
        while true {
            condition.lock()
            if state.pending.isEmpty && !state.closing {
                _ = condition.wait(until: Date(timeIntervalSinceNow: 0.1))
            }
            let batch = state.pending
            state.pending.removeAll(keepingCapacity: true)
            let closing = state.closing
            let someoneWaits = state.waitingForRoom > 0
            condition.unlock()
            if someoneWaits { condition.broadcast() }

            if let first = batch.first, let last = batch.last {
                if held.count >= heldLimit {
                    status.addLost(batch.count)
                    lostSeqs.append(first.seq...last.seq)
                } else {
                    held.reserveCapacity(held.count + batch.count)
                    for stored in batch { held.append(stored.record) }   // the store fills in lint, off the loops
                }
            }
            while !held.isEmpty {
                // The whole of `held` (the usual case) is handed over as it is, not copied record by record.
                let chunk = held.count <= batchLimit ? held : Array(held.prefix(batchLimit))
                let started = ContinuousClock.now
                if let error = appendWaiting(chunk) {
                    if !status.isUnwritable {
                        status.markUnwritable()
                        say("cannot write records to \(store.label): \(store.describe(error)); holding up to \(heldLimit) "
                            + "records in memory and answering 500 InternalServerError instead of success until it takes them")
                    }
                    break
                }
                if chunk.count == held.count { held = [] } else { held.removeFirst(chunk.count) }
                storedSeq = chunk[chunk.count - 1].seq
                let took = ContinuousClock.now - started
                let micros = took.components.seconds * 1_000_000 + took.components.attoseconds / 1_000_000_000_000
                counted.withLock { $0.addBatch(size: chunk.count, micros: micros) }
                if status.isUnwritable {
                    status.markWritable()
                    say("\(store.label) takes records again; \(status.lost) lost so far; answering normally")
                }
            }
            status.setWaiting(held.count)
            if closing && !held.isEmpty {
                status.addLost(held.count)
                say("stopping with \(held.count) record(s) not written to \(store.label) (\(status.lost) lost in all)")
                lostSeqs.append(held[0].seq...held[held.count - 1].seq)
                held = []
                status.setWaiting(0)
            }

            condition.lock()
            state.settled += UInt64(batch.count)
            var due: [(seq: UInt64, action: RecordFileWriter.Completion)] = []
            if !state.completions.isEmpty {
                let count = state.completions.prefix { completion in
                    completion.seq <= storedSeq || lostSeqs.contains { $0.contains(completion.seq) }
                }.count
                due = Array(state.completions.prefix(count))
                state.completions.removeFirst(count)
            }
            let done = closing && state.pending.isEmpty
            if done {
                due += state.completions
                state.completions = []
                state.finished = true
            }
            let oldestWaiting = state.completions.first?.seq ?? .max
            condition.unlock()
            condition.broadcast()
            for (seq, action) in due { action(!lostSeqs.contains { $0.contains(seq) } && seq <= storedSeq) }
            lostSeqs.removeAll { $0.upperBound < oldestWaiting }
            if done { break }
            if status.isUnwritable && !closing { Thread.sleep(forTimeInterval: 0.1) }   // the retry interval
        }
    }

    /// Runs the store's `append` and waits for it on this thread (a dedicated thread, not a cooperative pool one):
    /// nil when the batch is stored, else the error.
    private func appendWaiting(_ batch: [RecordedRequest]) -> (any Error)? {
        let outcome = Locked<(any Error)?>(nil)
        let done = DispatchSemaphore(value: 0)
        let store = self.store
        Task {
            do {
                try await store.append(batch)
            } catch {
                outcome.withLock { $0 = error }
            }
            done.signal()
        }
        done.wait()
        return outcome.withLock { $0 }
    }

    /// One line on stderr, from this thread.
    private func say(_ text: String) {
        FileHandle.standardError.write(Data("mockapns: \(text)\n".utf8))
    }
}
