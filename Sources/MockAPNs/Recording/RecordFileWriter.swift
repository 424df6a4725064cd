#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Synchronization

/// Appends records to a JSON Lines file from its own thread, so event loops never touch the disk.
///
/// Loop threads only enqueue (a short lock). The writer thread wakes when signalled and at least every
/// 100 ms (the flush interval: what a `kill -9` can lose), encodes what is pending and appends it as one batch of
/// whole lines (`RecordFileAppender`).
///
/// A batch that cannot be written (disk full, I/O error) is kept and tried again every 100 ms, with every record
/// that arrives meanwhile, up to `heldBytesLimit` bytes; records past that bound are counted lost. While it fails,
/// `status.isUnwritable` is set (the pipeline answers 500 instead of success), and each change of state is said
/// once on stderr. `flush` waits until everything enqueued before it is written or known unwritable; `close`
/// flushes, tries a held batch one last time, and stops the thread.
///
/// The queue is bounded: once `queueLimit` records wait, `enqueue` tells its caller to `waitForRoom` (outside any
/// lock of its own), which holds that thread until the writer takes the queue. A disk slower than the traffic
/// thus slows the event loops down instead of growing memory without bound or dropping records.
final class RecordFileWriter: Sendable {
    /// The default `queueLimit`: about 100 MB of records in the worst case, and far more than a healthy
    /// writer ever has waiting (it takes the queue every 100 ms, or at 4 096 records).
    static let defaultQueueLimit = 65_536
    /// The default `heldBytesLimit`: how much encoded JSON waits in memory for an unwritable file.
    static let defaultHeldBytesLimit = 64 << 20

    /// Called once a record's line is written (true) or known lost (false); from the writer thread.
    typealias Completion = @Sendable (_ written: Bool) -> Void

    private struct State {
        var pending: [StoredRecord] = []
        /// `--record-sync`: actions to run once the record numbered `seq` is written, in `seq` order.
        var completions: [(seq: UInt64, action: Completion)] = []
        var enqueued: UInt64 = 0
        /// Records written, held for an unwritable file, or lost: what `flush` waits for.
        var settled: UInt64 = 0
        var closing = false
        var finished = false
        var waitingForRoom = 0
        var warnedFull = false
        /// `reopen()` calls so far, and how many the writer has carried out.
        var reopensRequested: UInt64 = 0
        var reopensDone: UInt64 = 0
    }

    // `condition` guards `state`; it both wakes the writer (new work, flush, close) and wakes flushers
    // (progress). `state` is nonisolated(unsafe) because every access below holds `condition`.
    private let condition = NSCondition()
    private nonisolated(unsafe) var state = State()
    // Used by the writer thread only (and by `init` before the thread starts).
    private nonisolated(unsafe) let file: RecordFileAppender
    private let queueLimit: Int
    private let heldBytesLimit: Int
    /// Whether each record is written before it is answered: the writer starts a batch as soon as one arrives.
    let synchronous: Bool
    /// Whether the file can be written, and what was lost.
    let status = RecordFileStatus()
    /// Runs on the writer thread before each batch is written; tests use it to play a slow disk.
    private let beforeBatch: (@Sendable () -> Void)?
    /// Runs on the writer thread when the file under the path changed (reopened, or cut by someone else), so
    /// whatever indexes its offsets starts again.
    private let fileChanged: (@Sendable () -> Void)?

    /// Hands the lines this writer encodes to followers once some follower reads records.
    private let lineSharing: LineSharing?
    /// The last `seq` this writer has encoded (written, held or counted lost): followers at the head read up to
    /// here and take the writer's lines.
    let encodedThrough: Atomic<UInt64>

    /// What the file held when it was opened (torn tail cut off, highest `seq`).
    var recovery: RecordFileRecovery { file.recovery }

    init(path: String, queueLimit: Int = defaultQueueLimit, heldBytesLimit: Int = defaultHeldBytesLimit,
         synchronous: Bool = false, operations: RecordFileAppender.FileOperations = .system,
         beforeBatch: (@Sendable () -> Void)? = nil, fileChanged: (@Sendable () -> Void)? = nil,
         lineSharing: LineSharing? = nil) throws(RecorderError) {
        file = try RecordFileAppender(path: path, operations: operations)
        self.lineSharing = lineSharing
        encodedThrough = Atomic(file.recovery.highestSeq)
        self.fileChanged = fileChanged
        self.queueLimit = max(1, queueLimit)
        self.heldBytesLimit = max(1, heldBytesLimit)
        self.synchronous = synchronous
        self.beforeBatch = beforeBatch
        let thread = Thread { [self] in self.run() }
        thread.name = "record-file"   // at most 15 bytes: Linux refuses a longer thread name
        thread.start()
    }

    /// Queues a record (`completion`, if given, runs once its line is written or lost); returns at once. Returns
    /// true when the queue has reached its limit: the caller should `waitForRoom()` once it has let go of its own
    /// locks. The caller enqueues in `seq` order.
    func enqueue(_ record: StoredRecord, completion: Completion? = nil) -> Bool {
        condition.lock()
        state.pending.append(record)
        state.enqueued += 1
        if let completion { state.completions.append((record.seq, completion)) }
        let count = state.pending.count
        condition.unlock()
        if count >= 4096 || count >= queueLimit || (synchronous && count == 1) { condition.broadcast() }
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

    /// Blocks until every record enqueued so far has been written, or is known unwritable (held or lost).
    func flush() {
        condition.lock()
        let target = state.enqueued
        condition.broadcast()
        while state.settled < target && !state.finished {
            condition.wait()
        }
        condition.unlock()
    }

    /// Makes the writer open its path again (creating the file if it is missing) and append there from the next
    /// batch on: what SIGHUP asks for after a rename rotation (`mv rec.jsonl rec.jsonl.1`). Blocks until done; one
    /// line on stderr says what happened. If the path cannot be opened the writer keeps its old file.
    func reopen() {
        condition.lock()
        state.reopensRequested += 1
        let target = state.reopensRequested
        condition.broadcast()
        while state.reopensDone < target && !state.finished { condition.wait() }
        condition.unlock()
    }

    /// Flushes, stops the writer thread and closes the file. Idempotent.
    func close() {
        condition.lock()
        state.closing = true
        condition.broadcast()
        while !state.finished { condition.wait() }
        condition.unlock()
    }

    /// Appends each record's line to `encoder`; while followers read records, also offers each line to its record
    /// (an exact-size copy) unless the record is already past the followers' shared-line window.
    private func encode(_ batch: [StoredRecord], into encoder: inout JSONLineEncoder) {
        guard lineSharing?.isOn == true, let newest = batch.last?.seq else {
            for stored in batch { stored.encode(into: &encoder) }
            return
        }
        for stored in batch {
            let start = encoder.bytes.count
            stored.encode(into: &encoder)
            if stored.seq &+ Recorder.sharedLineWindow > newest {
                stored.offerLine(encoder.bytes.withUnsafeBufferPointer { Array(UnsafeBufferPointer(rebasing: $0[start...])) })
            }
        }
    }

    private func run() {
        // `encoder.bytes` holds whole lines not yet written: this batch, after any held from failed attempts.
        var encoder = JSONLineEncoder(capacity: 1 << 20)
        var held = HeldRecords()
        var writtenSeq: UInt64 = 0
        var lostSeqs: [ClosedRange<UInt64>] = []   // records dropped, for their completions (rare: a failing disk)
        var reopenedThrough: UInt64 = 0
        while true {
            condition.lock()
            if state.pending.isEmpty && !state.closing && state.reopensRequested == state.reopensDone {
                _ = condition.wait(until: Date(timeIntervalSinceNow: 0.1))
            }
            let reopens = state.reopensRequested
            let batch = state.pending
            state.pending.removeAll(keepingCapacity: true)
            let closing = state.closing
            let someoneWaits = state.waitingForRoom > 0
            let warn = someoneWaits && !state.warnedFull
            if warn { state.warnedFull = true }
            condition.unlock()
            if someoneWaits { condition.broadcast() }   // the queue has room again
            if reopens != reopenedThrough {
                reopenedThrough = reopens
                reopenFile()
            }
            if warn {   // said once, from this thread (loop threads do no I/O)
                say("the record file is falling behind (\(queueLimit) records were waiting); new requests wait while it catches up")
            }

            if let first = batch.first, let last = batch.last {
                if held.count > 0 && encoder.bytes.count >= heldBytesLimit {
                    // The file has been unwritable for a while: memory stays bounded, and these are counted.
                    status.addLost(batch.count)
                    lostSeqs.append(first.seq...last.seq)
                } else {
                    encode(batch, into: &encoder)
                    held.append(first.seq...last.seq)
                }
                encodedThrough.store(last.seq, ordering: .releasing)
            }
            if held.count > 0 {
                beforeBatch?()
                let result = encoder.bytes.withUnsafeBytes { file.append($0) }
                switch result {
                case .success(let outcome):
                    if let before = outcome.truncatedFrom {
                        fileChanged?()
                        say("\(file.path) was cut from \(before) bytes to fewer (a copytruncate rotation?); "
                            + "appending at its new end")
                    }
                    if status.isUnwritable {
                        status.markWritable()
                        say("the record file \(file.path) is writable again; \(held.count) held record(s) written, "
                            + "\(status.lost) lost so far; answering normally")
                    }
                    encoder.bytes.removeAll(keepingCapacity: encoder.bytes.capacity <= 4 << 20)
                    writtenSeq = held.removeFirst(held.count) ?? writtenSeq
                case .failure(let failure):
                    if failure.written > 0 {   // the whole lines that did fit stay in the file
                        let lines = encoder.bytes[0..<failure.written].reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
                        encoder.bytes.removeFirst(failure.written)
                        writtenSeq = held.removeFirst(lines) ?? writtenSeq
                    }
                    if !status.isUnwritable {
                        status.markUnwritable()
                        say("\(failure.message); holding records in memory and answering 500 InternalServerError "
                            + "instead of success until the file can be written")
                    }
                }
                status.setWaiting(held.count)
            }
            if closing && held.count > 0 {
                // The last attempt was just made: what is still held never reaches the file.
                status.addLost(held.count)
                say("stopping with \(held.count) record(s) not written to \(file.path) (\(status.lost) lost in all)")
                lostSeqs += held.ranges
                held = HeldRecords()
                encoder.bytes.removeAll()
                status.setWaiting(0)
            }

            condition.lock()
            state.settled += UInt64(batch.count)
            var due: [(seq: UInt64, action: Completion)] = []
            if !state.completions.isEmpty {
                let count = state.completions.prefix { completion in
                    completion.seq <= writtenSeq || lostSeqs.contains { $0.contains(completion.seq) }
                }.count
                due = Array(state.completions.prefix(count))
                state.completions.removeFirst(count)
            }
            state.reopensDone = max(state.reopensDone, reopenedThrough)
            let done = closing && state.pending.isEmpty
            if done {
                due += state.completions
                state.completions = []
                state.finished = true
            }
            let oldestWaiting = state.completions.first?.seq ?? .max
            condition.unlock()
            condition.broadcast()
            for (seq, action) in due { action(!lostSeqs.contains { $0.contains(seq) } && seq <= writtenSeq) }
            lostSeqs.removeAll { $0.upperBound < oldestWaiting }
            if done { break }
        }
    }

    /// Carries out a `reopen()` on this thread, the only one that touches the file.
    private func reopenFile() {
        do {
            let found = try file.reopen()
            fileChanged?()
            let held = found.wholeLinesEnd > 0 ? "continuing after its \(found.wholeLinesEnd) bytes" : "a new file"
            say("reopened the record file \(file.path) (\(held))")
        } catch {
            say("could not reopen the record file \(file.path): \(error); still writing to the file opened before")
        }
    }

    /// One line on stderr, from this thread.
    private func say(_ text: String) {
        FileHandle.standardError.write(Data("mockapns: \(text)\n".utf8))
    }
}

/// The numbers of the records whose lines wait in the writer's buffer, in order: runs of consecutive `seq`s (a gap
/// where records were dropped for a file unwritable too long).
private struct HeldRecords {
    private(set) var ranges: [ClosedRange<UInt64>] = []
    private(set) var count = 0

    mutating func append(_ range: ClosedRange<UInt64>) {
        ranges.append(range)
        count += range.count
    }

    /// Forgets the first `n` records (written); returns the last one's `seq`, or nil when `n` is 0.
    mutating func removeFirst(_ n: Int) -> UInt64? {
        guard n > 0 else { return nil }
        var left = min(n, count)
        count -= left
        var last: UInt64 = 0
        while left > 0, let first = ranges.first {
            if first.count <= left {
                left -= first.count
                last = first.upperBound
                ranges.removeFirst()
            } else {
                last = first.lowerBound + UInt64(left) - 1
                ranges[0] = (last + 1)...first.upperBound
                left = 0
            }
        }
        return last
    }
}
