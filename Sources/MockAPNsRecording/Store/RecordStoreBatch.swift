/// What one read of a follower of a ``RecordStore`` brings: the records that arrived, oldest first, and the ids it
/// should have read but the store no longer holds (retention pruned them first).
public struct RecordStoreBatch: Sendable {
    /// The new records, oldest first (empty when nothing came within the store's poll interval).
    public var records: [RecordedRequest]
    /// Record ids the follower had not read yet that the store pruned (by `--retain-count`/`--retain-age`); how many
    /// records of the namespace they were is not known (ids are shared by every namespace of the database).
    public var pruned: ClosedRange<UInt64>?

    /// A batch of `records`, and `pruned` when the store let some go unread.
    public init(records: [RecordedRequest], pruned: ClosedRange<UInt64>? = nil) {
        self.records = records
        self.pruned = pruned
    }
}
