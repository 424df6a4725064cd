/// Turns followed records into their JSON lines for one follower (the live stream, `tail`): a wrapper around the
/// file's line encoder, so callers outside the module need not know how lines are encoded or cached.
public struct RecordLineEncoder {
    private var encoder = JSONLineEncoder(capacity: 4096)

    /// Makes an encoder.
    public init() {}

    /// `record`'s JSON line (lint included, newline at the end): the same bytes for every follower of the record.
    public mutating func line(for record: FollowedRecord) -> [UInt8] {
        record.line(using: &encoder)
    }
}
