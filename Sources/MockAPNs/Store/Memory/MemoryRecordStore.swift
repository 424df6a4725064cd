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

    /// The recorder's counters since start (or the last clear).
    public func statistics() async throws -> RecorderStatistics { recorder.statistics }

    /// Forgets the ring and resets the counters (the file is kept).
    public func clear() async throws { recorder.clear() }

    /// Forgets the oldest records in memory that `retention` lets go of.
    @discardableResult
    public func prune(_ retention: RecordRetention) async throws -> Int { recorder.pruneMemory(retention) }
}
