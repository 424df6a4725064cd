import Support
import APNsModel

/// A numbered record, shared by the memory ring and the writers' queues: handing it on costs one reference
/// count, where copying a `RecordedRequest` retains and later releases each of its fields.
///
/// The record itself is immutable (`base`, read in place by the file writer) and its number is kept beside it:
/// a record in a mutable class property would be copied whole on every read.
// @unchecked Sendable: `seq` is written once, in `number`, under the recorder's lock and before the record is
// published (ring, writer queue, subscribers all receive it through that lock or after it); immutable after.
package final class NumberedRecord: @unchecked Sendable {
    /// The record as stored, without its number (`seq` is 0 here).
    let base: RecordedRequest
    /// The record's number.
    private(set) var seq: UInt64 = 0

    /// The record's JSON line, encoded by the first follower that needed it and shared with the others, while the
    /// record is among the newest ``RecordFeed/sharedLineWindow`` (older lines are dropped, so followers cost at most
    /// that many lines of memory, not one per record in the ring).
    private let sharedLine = Locked<[UInt8]?>(nil)

    init(_ record: consuming RecordedRequest) {
        base = record
    }

    /// The record's JSON line with its lint findings, newline included: encoded once (with `encoder`) for every
    /// follower, never on the loop thread. With `keep` false (a record about to leave the shared window) the line
    /// is encoded for this caller only.
    ///
    /// The lock is held while encoding, so followers reading the same batch at once wait a few microseconds for
    /// the first one's line instead of each encoding it again.
    func line(using encoder: inout JSONLineEncoder, keep: Bool) -> [UInt8] {
        guard keep else { return encodeLine(using: &encoder) }
        return sharedLine.withLock { stored in
            if let stored { return stored }
            let line = encodeLine(using: &encoder)
            stored = line
            return line
        }
    }

    /// Keeps `line` as the shared line unless one is kept already: the file writer offers the lines it encodes, so
    /// followers need not encode them again.
    func offerLine(_ line: [UInt8]) {
        sharedLine.withLock { stored in
            if stored == nil { stored = line }
        }
    }

    /// Whether the record keeps a shared line now.
    var keepsLine: Bool { sharedLine.withLock { $0 != nil } }

    /// Forgets the shared line (the record left the window followers share lines in); returns it so the caller can
    /// free it outside any lock.
    func dropLine() -> [UInt8]? {
        sharedLine.withLock { stored in
            defer { stored = nil }
            return stored
        }
    }

    /// A fresh line for this record, in an array of its own size: `encoder` keeps its buffer for the next one
    /// (handing out the encoder's own array would make its next use copy the whole capacity).
    private func encodeLine(using encoder: inout JSONLineEncoder) -> [UInt8] {
        encoder.bytes.removeAll(keepingCapacity: true)
        encode(into: &encoder)
        return encoder.bytes.withUnsafeBufferPointer { Array($0) }
    }

    /// The record, with its `seq`.
    var record: RecordedRequest {
        var numbered = base
        numbered.seq = seq
        return numbered
    }

    /// Gives the record its number (the recorder, under its lock, before anyone else sees the record).
    func number(_ seq: UInt64) {
        self.seq = seq
    }

    /// Appends the record's JSON line, with its lint findings, to `encoder`.
    func encode(into encoder: inout JSONLineEncoder) {
        let lint = encoder.lintFindings(for: base)
        encoder.encode(base, seq: seq, lint: lint)
    }
}
