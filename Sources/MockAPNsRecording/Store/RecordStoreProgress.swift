/// How the record store's writer is doing, for `/metrics`: batches and records committed, records waiting, how long
/// commits take and how large batches are, and what retention pruned. Counters only grow.
public struct RecordStoreProgress: Sendable, Equatable {
    /// Upper bounds (inclusive) of the batch-size buckets, in records; the writer's batches hold at most 2 000.
    public static let batchSizeBounds: [Int] = [1, 10, 100, 500, 1_000, 2_000]

    /// Batches the store committed.
    public var batches = 0
    /// Records in those batches.
    public var records = 0
    /// Records waiting for the store's writer (its bounded queue).
    public var queued = 0
    /// Records retention pruned from the store by this instance.
    public var pruned = 0
    /// How long each committed batch's `append` took, from the writer's hand-off to the commit's answer.
    public var commitDurations = DurationBuckets()
    /// Committed batches per size bucket (`batchSizeBounds.count + 1` of them; the last above every bound). Not
    /// cumulative.
    public var batchSizes: [Int] = Array(repeating: 0, count: batchSizeBounds.count + 1)

    /// No batches yet.
    public init() {}

    /// Counts one committed batch of `size` records that took `micros` to commit.
    mutating func addBatch(size: Int, micros: Int64) {
        batches += 1
        records += size
        commitDurations.add(micros: micros)
        batchSizes[Self.batchSizeBounds.firstIndex { size <= $0 } ?? Self.batchSizeBounds.count] += 1
    }
}
