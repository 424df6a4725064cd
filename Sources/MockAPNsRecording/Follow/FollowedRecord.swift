/// One record as a follower reads it: the record, and its JSON line (the `--record` file's format, lint included),
/// encoded once and shared by every follower of the same record.
public struct FollowedRecord: Sendable {
    private enum Source: Sendable {
        /// From the memory ring: the line is encoded on first use and kept with the numbered record while `keep`
        /// (the record is within the recorder's shared-line window).
        case stored(NumberedRecord, keep: Bool)
        /// Read back from the record file: the line as the file holds it.
        case file(RecordedRequest, line: [UInt8])
    }

    private let source: Source

    init(_ stored: NumberedRecord, keepLine: Bool) {
        source = .stored(stored, keep: keepLine)
    }

    init(record: RecordedRequest, line: [UInt8]) {
        source = .file(record, line: line)
    }

    /// The record (lint findings not filled in unless it came from the file, whose lines carry them).
    public var record: RecordedRequest {
        switch source {
        case .stored(let stored, _): stored.record
        case .file(let record, _): record
        }
    }

    /// The record's number.
    public var seq: UInt64 {
        switch source {
        case .stored(let stored, _): stored.seq
        case .file(let record, _): record.seq
        }
    }

    /// The record's JSON line, newline included. `encoder` is the follower's own (its lint memo and buffers); the
    /// first follower to ask encodes the line, the others get the same bytes.
    func line(using encoder: inout JSONLineEncoder) -> [UInt8] {
        switch source {
        case .stored(let stored, let keep): stored.line(using: &encoder, keep: keep)
        case .file(_, let line): line
        }
    }
}
