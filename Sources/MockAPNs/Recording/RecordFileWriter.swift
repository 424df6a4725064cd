#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Appends records to a JSON Lines file from its own thread, so event loops never touch the disk.
///
/// Loop threads only enqueue (a short lock). The writer thread wakes when signalled and at least every
/// 100 ms, encodes what is pending and appends it in one go (`RecordFileAppender`). `flush` waits until
/// everything enqueued before it is on disk (in the OS); `close` flushes and stops the thread.
///
/// The queue is bounded: once `queueLimit` records wait, `enqueue` tells its caller to `waitForRoom` (outside any
/// lock of its own), which holds that thread until the writer takes the queue. A disk slower than the traffic
/// thus slows the event loops down instead of growing memory without bound or dropping records.
final class RecordFileWriter: Sendable {
    /// The default `queueLimit`: about 100 MB of records in the worst case, and far more than a healthy
    /// writer ever has waiting (it takes the queue every 100 ms, or at 4 096 records).
    static let defaultQueueLimit = 65_536

    private struct State {
        var pending: [StoredRecord] = []
        var enqueued: UInt64 = 0
        var written: UInt64 = 0
        var closing = false
        var finished = false
        var waitingForRoom = 0
        var warnedFull = false
    }

    // `condition` guards `state`; it both wakes the writer (new work, flush, close) and wakes flushers
    // (progress). `state` is nonisolated(unsafe) because every access below holds `condition`.
    private let condition = NSCondition()
    private nonisolated(unsafe) var state = State()
    // Used by the writer thread only (and by `init` before the thread starts).
    private nonisolated(unsafe) let file: RecordFileAppender
    private let queueLimit: Int
    /// Runs on the writer thread before each batch is written; tests use it to play a slow disk.
    private let beforeBatch: (@Sendable () -> Void)?

    init(path: String, queueLimit: Int = defaultQueueLimit, beforeBatch: (@Sendable () -> Void)? = nil) throws(RecorderError) {
        file = try RecordFileAppender(path: path)
        self.queueLimit = max(1, queueLimit)
        self.beforeBatch = beforeBatch
        let thread = Thread { [self] in self.run() }
        thread.name = "mockapns-record-writer"
        thread.start()
    }

    /// Queues a record; returns at once. Returns true when the queue has reached its limit: the caller should
    /// `waitForRoom()` once it has let go of its own locks.
    func enqueue(_ record: StoredRecord) -> Bool {
        condition.lock()
        state.pending.append(record)
        state.enqueued += 1
        let count = state.pending.count
        condition.unlock()
        if count >= 4096 || count >= queueLimit { condition.broadcast() }
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

    /// Blocks until every record enqueued so far has been written.
    func flush() {
        condition.lock()
        let target = state.enqueued
        condition.broadcast()
        while state.written < target && !state.finished {
            condition.wait()
        }
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

    private func run() {
        var encoder = JSONLineEncoder(capacity: 1 << 20)
        var reportedFailure = false
        while true {
            condition.lock()
            if state.pending.isEmpty && !state.closing {
                _ = condition.wait(until: Date(timeIntervalSinceNow: 0.1))
            }
            let batch = state.pending
            state.pending.removeAll(keepingCapacity: true)
            let closing = state.closing
            let someoneWaits = state.waitingForRoom > 0
            let warn = someoneWaits && !state.warnedFull
            if warn { state.warnedFull = true }
            condition.unlock()
            if someoneWaits { condition.broadcast() }   // the queue has room again
            if warn {   // said once, from this thread (loop threads do no I/O)
                FileHandle.standardError.write(Data(("mockapns: the record file is falling behind (\(queueLimit) records"
                    + " were waiting); new requests wait while it catches up\n").utf8))
            }

            beforeBatch?()
            encoder.bytes.removeAll(keepingCapacity: true)
            for stored in batch { stored.encode(into: &encoder) }
            encoder.bytes.withUnsafeBytes { file.append($0) }
            if let failure = file.failure, !reportedFailure {
                reportedFailure = true
                FileHandle.standardError.write(Data("mockapns: \(failure)\n".utf8))
            }

            condition.lock()
            state.written += UInt64(batch.count)
            let done = closing && state.pending.isEmpty
            if done { state.finished = true }
            condition.unlock()
            condition.broadcast()
            if done { break }
        }
        file.close()
    }
}
