/// What one read of a `RecordFollower` returns: records in `seq` order after the follower's position, and, when the
/// follower fell behind what the server still holds, the range it skipped.
public struct FollowBatch: Sendable {
    /// Records numbered in this range were gone (pushed out of memory, and no `--record` file to read them from)
    /// before the follower reached them. Reported once, before `records`.
    public var skipped: ClosedRange<UInt64>?
    /// Records numbered in this range were passed over on purpose: the follower asked for only the newest few
    /// (`RecordFollower.keepNewest`) and more were waiting. They are still in memory or the record file.
    public var elided: ClosedRange<UInt64>?
    /// The records read, oldest first; may be empty when only `skipped` or a timeout is reported.
    public var records: [FollowedRecord]
    /// The follower's position after this batch: the last `seq` it covers.
    public var position: UInt64

    /// Makes a batch.
    public init(skipped: ClosedRange<UInt64>? = nil, records: [FollowedRecord], position: UInt64) {
        self.skipped = skipped
        self.records = records
        self.position = position
    }
}
