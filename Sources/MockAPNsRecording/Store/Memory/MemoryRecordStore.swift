import Support

/// Today's embedded store behind the ``RecordStore`` interface: a ``Recorder``'s memory ring, and its JSON Lines
/// file for records older than the ring (`--record`). What every mock without `--store` keeps; the control plane and
/// tests can talk to it as they would to a shared store.
///
/// The recorder numbers what it stores, so `append` gives each record a new `seq` (the ring is one process's
/// numbering); `prune` forgets records from memory only, since the JSON Lines file is an append-only log that
/// stays whole (a reader of the file still sees them).
public struct MemoryRecordStore: RecordStore {
    /// The recorder whose ring (and file) this store reads and writes.
    public let recorder: Recorder

    /// The store over `recorder`.
    public init(recorder: Recorder) {
        self.recorder = recorder
    }

    /// "memory", or "memory + FILE" with a record file.
    public var label: String { recorder.filePath.map { "memory + \($0)" } ?? "memory" }

    /// Records each one in order (renumbered after the recorder's last `seq`).
    public func append(_ batch: [RecordedRequest]) async throws {
        for record in batch { recorder.append(record) }
    }

    /// From the ring: the newest `filter.limit` matches numbered below `before`, oldest first.
    public func records(matching filter: RecordFilter, before: UInt64?) async throws -> [RecordedRequest] {
        var unlimited = filter
        unlimited.limit = nil
        var matching = recorder.records(matching: unlimited)
        if let before { matching.removeAll { $0.seq >= before } }
        guard let limit = filter.limit, limit >= 0, matching.count > limit else { return matching }
        return Array(matching.suffix(limit))
    }

    /// By number from the ring or the file; by `apns-id` from the ring.
    public func record(_ id: RecordID) async throws -> RecordedRequest? {
        switch id {
        case .seq(let seq): return try recorder.findRecord(seq: seq)
        case .apnsID(let text): return recorder.record(apnsID: text)
        }
    }

    /// The recorder's search: the ring, then the record file.
    public func search(_ query: SearchQuery, before: UInt64?, limit: Int) async throws -> SearchPage {
        try recorder.search(query, before: before, limit: limit)
    }

    /// The recorder's last `seq`.
    public func newestID() async throws -> UInt64 { recorder.lastSequence }

    /// Records as the recorder numbers them, read from the ring, an empty batch after 100 ms without any (the control
    /// plane's own live feed, ``RecordFollower``, is the fast path; this one serves code written against any store).
    public func follow(matching filter: RecordFilter, after id: UInt64) -> AsyncThrowingStream<RecordStoreBatch, any Error> {
        let recorder = self.recorder
        let cursor = Locked(id)
        var unpaged = filter
        unpaged.limit = nil
        let query = unpaged
        return AsyncThrowingStream {
            // Everything up to `newest` is in this read, so the next one starts there even when none matched.
            let newest = recorder.lastSequence
            var paged = query
            paged.since = cursor.withLock { $0 }
            let records = recorder.records(matching: paged)
            cursor.withLock { $0 = max($0, newest, records.last?.seq ?? 0) }
            if records.isEmpty {
                do { try await Task.sleep(for: .milliseconds(100)) } catch { return nil }
            }
            return RecordStoreBatch(records: records)
        }
    }

    /// The recorder's counters since start (or the last clear).
    public func statistics() async throws -> RecorderStatistics { recorder.statistics }

    /// Forgets the ring and resets the counters (the file is kept).
    public func clear() async throws { recorder.clear() }

    /// Forgets the oldest records in memory that `retention` lets go of.
    @discardableResult
    public func prune(_ retention: RecordRetention) async throws -> Int { recorder.pruneMemory(retention) }
}
