import MockAPNs

extension PostgresRecordStore {
    /// How far back a follower looks for records that became visible after higher ids did: instances commit their
    /// batches (at most 2 000 records each) independently, so a lower id can appear late.
    public static let followLookBack: UInt64 = 20_000

    /// Every matching record numbered above `id`, from every instance of the namespace, one poll per batch: new ids
    /// in order and, once, any id that became visible late (a slower instance's batch), so each record comes exactly
    /// once. A poll that finds nothing yields an empty batch after 200 ms. Pull-driven: nothing is read ahead of the
    /// consumer, so a slow one holds at most one batch (2 000 records). When retention pruned past ids the follower
    /// had not read (the namespace's prune mark), the batch names them, once. Nothing is closed when the stream ends.
    public func follow(matching filter: RecordFilter, after id: UInt64) -> AsyncThrowingStream<RecordStoreBatch, any Error> {
        let cursor = StoreFollowCursor(store: self, filter: filter, after: id)
        return AsyncThrowingStream {
            do {
                return try await cursor.next()
            } catch is CancellationError {
                return nil
            }
        }
    }
}

/// A follower's position in the store: the highest id delivered and the ids delivered within the look-back window.
actor StoreFollowCursor {
    private let store: PostgresRecordStore
    private let filter: RecordFilter
    private let start: UInt64
    private var cursor: UInt64
    private var delivered = Set<UInt64>()
    private var lastWasEmpty = false
    /// Ids up to here were reported pruned (or were delivered).
    private var accountedThrough: UInt64

    init(store: PostgresRecordStore, filter: RecordFilter, after id: UInt64) {
        self.store = store
        self.filter = filter
        start = id
        cursor = id
        accountedThrough = id
    }

    /// The next batch (empty when nothing new came within 200 ms of the last empty one).
    func next() async throws -> RecordStoreBatch {
        if lastWasEmpty { try await Task.sleep(for: .milliseconds(200)) }
        // Read before the records: whatever retention deletes after this is still read below or named next time.
        let prunedThrough = try await store.prunedThrough()
        var pruned: ClosedRange<UInt64>?
        if prunedThrough > max(cursor, accountedThrough) {
            pruned = (max(cursor, accountedThrough) + 1)...prunedThrough
            accountedThrough = prunedThrough
        }
        let lookBack = PostgresRecordStore.followLookBack
        var fresh = try await store.ids(after: cursor, matching: filter, limit: 2_000)
        let full = fresh.count == 2_000
        if cursor > 0 {
            let low = cursor > lookBack ? cursor - lookBack : 1
            let start = self.start
            fresh += try await store.ids(in: low...cursor, matching: filter).filter { $0 > start }
        }
        fresh = fresh.filter { !delivered.contains($0) }.sorted()
        let records = try await store.records(ids: fresh)
        for record in records { delivered.insert(record.seq) }
        cursor = max(cursor, fresh.last ?? cursor)
        let floor = cursor > lookBack ? cursor - lookBack : 0
        if delivered.count > 4_096 { delivered = delivered.filter { $0 >= floor } }
        lastWasEmpty = !full && records.isEmpty && pruned == nil
        return RecordStoreBatch(records: records, pruned: pruned)
    }
}
