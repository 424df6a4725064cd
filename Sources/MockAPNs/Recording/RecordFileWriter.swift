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
final class RecordFileWriter: Sendable {
    private struct State {
        var pending: [StoredRecord] = []
        var enqueued: UInt64 = 0
        var written: UInt64 = 0
        var closing = false
        var finished = false
    }

    // `condition` guards `state`; it both wakes the writer (new work, flush, close) and wakes flushers
    // (progress). `state` is nonisolated(unsafe) because every access below holds `condition`.
    private let condition = NSCondition()
    private nonisolated(unsafe) var state = State()
    // Used by the writer thread only (and by `init` before the thread starts).
    private nonisolated(unsafe) let file: RecordFileAppender

    init(path: String) throws(RecorderError) {
        file = try RecordFileAppender(path: path)
        let thread = Thread { [self] in self.run() }
        thread.name = "mockapns-record-writer"
        thread.start()
    }

    /// Queues a record; returns at once.
    func enqueue(_ record: StoredRecord) {
        condition.lock()
        state.pending.append(record)
        state.enqueued += 1
        let wake = state.pending.count >= 4096
        condition.unlock()
        if wake { condition.broadcast() }
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
            condition.unlock()

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
