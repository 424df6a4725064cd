#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Appends records to a JSON Lines file from its own thread, so event loops never touch the disk.
///
/// Loop threads only enqueue (a short lock). The writer thread wakes when signalled and at least every
/// 100 ms, encodes what is pending and writes it with one `write(2)` per batch. `flush` waits until
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
    private let fd: Int32
    private let path: String

    init(path: String) throws(RecorderError) {
        let fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw .cannotOpenFile(path: path, errno: errno) }
        self.fd = fd
        self.path = path
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
            writeAll(encoder.bytes)

            condition.lock()
            state.written += UInt64(batch.count)
            let done = closing && state.pending.isEmpty
            if done { state.finished = true }
            condition.unlock()
            condition.broadcast()
            if done { break }
        }
        _ = Glibc.close(fd)
    }

    private func writeAll(_ bytes: [UInt8]) {
        var offset = 0
        bytes.withUnsafeBytes { raw in
            while offset < raw.count {
                let n = write(fd, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    FileHandle.standardError.write(Data("mockapns: writing \(path) failed: \(String(cString: strerror(errno)))\n".utf8))
                    return
                }
                offset += n
            }
        }
    }
}
