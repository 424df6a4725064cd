/// Turns records into their JSON lines for one follower (the live stream, `tail`) or writer (the store): a wrapper
/// around the file's line encoder, so callers outside the module need not know how lines are encoded or cached.
public struct RecordLineEncoder {
    private var encoder = JSONLineEncoder(capacity: 4096)

    /// Makes an encoder.
    public init() {}

    /// `record`'s JSON line (lint included, newline at the end): the same bytes for every follower of the record.
    public mutating func line(for record: FollowedRecord) -> [UInt8] {
        record.line(using: &encoder)
    }

    /// Hands `record`'s JSON line (with the lint findings the record carries or, with `linted`, its payload's
    /// findings when it carries none, remembered by payload; newline at the end) to `body` straight from the encoder's
    /// buffer, which the next call reuses: for writers that copy the line on (the store's rows).
    public mutating func withLine<Result>(for record: RecordedRequest, linted: Bool = false,
                                          _ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        encoder.bytes.removeAll(keepingCapacity: true)
        if linted, record.lint.isEmpty || record.connectionFinding != nil {
            encoder.encode(record, lint: encoder.lintFindings(for: record))
        } else {
            encoder.encode(record)
        }
        return try encoder.bytes.withUnsafeBufferPointer(body)
    }
}
