import Foundation
import Synchronization

/// The JSON Lines file as a ``BatchSink``: encodes each batch into whole lines after any lines still held, and
/// appends them in one write (``RecordFileAppender``).
///
/// Lines that cannot be written (disk full, I/O error) stay in the buffer and are tried again with the next batch,
/// up to `heldBytesLimit` bytes; batches past that bound are lost. The whole lines a failed write did get into the
/// file are dropped from the buffer, so no line is written twice.
// @unchecked Sendable: `encoder`, `held` and `file` are touched only by the writer's consuming task (one call at a
// time, on the writer's own thread); what other threads read is immutable, atomic or a `Sendable` object.
final class RecordFileSink: BatchSink, @unchecked Sendable {
    /// The default `heldBytesLimit`: how much encoded JSON waits in memory for an unwritable file.
    static let defaultHeldBytesLimit = 64 << 20

    private let file: RecordFileAppender
    private let heldBytesLimit: Int
    /// Runs before each batch is written; tests use it to play a slow disk.
    private let beforeBatch: (@Sendable () -> Void)?
    /// Runs when the file under the path changed (reopened, or cut by someone else), so whatever indexes its offsets
    /// starts again.
    private let fileChanged: (@Sendable () -> Void)?
    /// Hands the lines this sink encodes to followers once some follower reads records.
    private let lineSharing: LineSharing?
    /// The last `seq` this sink has encoded (written, held or counted lost): followers at the head read up to here
    /// and take the sink's lines.
    let encodedThrough: Atomic<UInt64>
    /// What the file held when it was opened (torn tail cut off, highest `seq`).
    let recovery: RecordFileRecovery

    /// Whole lines not yet written: those of held records, in `seq` order.
    private var encoder = JSONLineEncoder(capacity: 1 << 20)
    /// The numbers of the records whose lines are in `encoder.bytes`.
    private var held = HeldRecords()

    /// Opens (or creates) the file at `path` for appending after its last whole line.
    init(path: String, heldBytesLimit: Int = defaultHeldBytesLimit, operations: RecordFileAppender.FileOperations = .system,
         beforeBatch: (@Sendable () -> Void)? = nil, fileChanged: (@Sendable () -> Void)? = nil,
         lineSharing: LineSharing? = nil) throws(RecorderError) {
        file = try RecordFileAppender(path: path, operations: operations)
        recovery = file.recovery
        encodedThrough = Atomic(file.recovery.highestSeq)
        self.heldBytesLimit = max(1, heldBytesLimit)
        self.beforeBatch = beforeBatch
        self.fileChanged = fileChanged
        self.lineSharing = lineSharing
    }

    var label: String { file.path }
    /// The writer takes the queue at 4 096 records even within its interval: about 5 MB of lines per write.
    var wakeThreshold: Int { 4096 }
    var heldCount: Int { held.count }
    var pausesAfterFailure: Bool { false }

    func hold(_ batch: [NumberedRecord]) -> Bool {
        defer { encodedThrough.store(batch[batch.count - 1].seq, ordering: .releasing) }
        if held.count > 0 && encoder.bytes.count >= heldBytesLimit { return false }
        encode(batch)
        held.append(batch[0].seq...batch[batch.count - 1].seq)
        return true
    }

    /// Appends each record's line to `encoder`; while followers read records, also offers each line to its record
    /// (an exact-size copy) unless the record is already past the followers' shared-line window.
    private func encode(_ batch: [NumberedRecord]) {
        // One access to the property for the whole batch: a class's stored property passed inout is checked for
        // exclusivity at run time, a cost worth paying once per batch, not once per record.
        Self.encode(batch, into: &encoder, sharingLines: lineSharing?.isOn == true)
    }

    /// `encode(_:)` on an encoder the caller holds.
    private static func encode(_ batch: [NumberedRecord], into encoder: inout JSONLineEncoder, sharingLines: Bool) {
        guard sharingLines, let newest = batch.last?.seq else {
            for stored in batch { stored.encode(into: &encoder) }
            return
        }
        for stored in batch {
            let start = encoder.bytes.count
            stored.encode(into: &encoder)
            if stored.seq &+ RecordFeed.sharedLineWindow > newest {
                stored.offerLine(encoder.bytes.withUnsafeBufferPointer { Array(UnsafeBufferPointer(rebasing: $0[start...])) })
            }
        }
    }

    func writeHeld() async -> BatchWriteResult {
        beforeBatch?()
        switch encoder.bytes.withUnsafeBytes({ file.append($0) }) {
        case .success(let outcome):
            if let before = outcome.truncatedFrom {
                fileChanged?()
                say("\(file.path) was cut from \(before) bytes to fewer (a copytruncate rotation?); appending at its new end")
            }
            let count = held.count
            encoder.bytes.removeAll(keepingCapacity: encoder.bytes.capacity <= 4 << 20)
            let through = held.removeFirst(count) ?? 0
            return .written(through: through, count: count)
        case .failure(let failure):
            var through: UInt64?
            if failure.written > 0 {   // the whole lines that did fit stay in the file
                let lines = encoder.bytes[0..<failure.written].reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
                encoder.bytes.removeFirst(failure.written)
                through = held.removeFirst(lines)
            }
            return .failed(writtenThrough: through, sentence: "\(failure.message); holding records in memory and answering "
                           + "500 InternalServerError instead of success until the file can be written")
        }
    }

    func dropHeld() -> [ClosedRange<UInt64>] {
        let dropped = held.ranges
        held = HeldRecords()
        encoder.bytes.removeAll()
        return dropped
    }

    /// Carries out a `reopen()` of the writer, here where the file is written; one line on stderr says what happened.
    /// If the path cannot be opened the sink keeps its old file.
    func reopen() {
        do {
            let found = try file.reopen()
            fileChanged?()
            let what = found.wholeLinesEnd > 0 ? "continuing after its \(found.wholeLinesEnd) bytes" : "a new file"
            say("reopened the record file \(file.path) (\(what))")
        } catch {
            say("could not reopen the record file \(file.path): \(error); still writing to the file opened before")
        }
    }

    func fallingBehindSentence(queueLimit: Int) -> String? {
        "the record file is falling behind (\(queueLimit) records were waiting); the APNs listeners read no new requests "
            + "while it catches up"
    }

    func recoveredSentence(written: Int, lost: Int) -> String {
        "the record file \(file.path) is writable again; \(written) held record(s) written, \(lost) lost so far; answering normally"
    }

    /// One line on stderr, from the writer's thread.
    private func say(_ text: String) {
        FileHandle.standardError.write(Data("mockapns: \(text)\n".utf8))
    }
}
