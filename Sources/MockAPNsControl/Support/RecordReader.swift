import APNsModel
import MockAPNsRecording

/// Where the control plane reads records: this server's own ``Recorder`` (its memory ring and record file), or,
/// with `serve --store`, the shared ``RecordStore`` every instance writes, so any instance's API and dashboard show
/// every instance's pushes, numbered by the store-wide id.
///
/// The store's methods do I/O; the routes call them from their request tasks, never from the APNs event loops.
struct RecordReader: Sendable {
    /// This server's recorder: its own records, and the live feed when there is no store.
    let recorder: Recorder
    /// The shared store, when the server has one.
    let store: (any RecordStore)?
    /// What the record routes read: the store when there is one, else the recorder.
    private let source: any RecordSource

    /// Reads the shared `store` when there is one, else `recorder`.
    init(recorder: Recorder, store: (any RecordStore)?) {
        self.recorder = recorder
        self.store = store
        source = store.map { StoreRecords($0) } ?? RecorderRecords(recorder)
    }

    /// How many records a list from a shared store returns when the request sets no `limit`: a table of weeks of
    /// pushes is not one JSON answer.
    static let storeListLimit = 10_000

    /// The records matching `filter`, oldest first (with a store: the newest ``storeListLimit`` unless `limit` says).
    func records(matching filter: RecordFilter) async throws -> [RecordedRequest] {
        guard let store else { return try await source.records(matching: filter) }
        var limited = filter
        if limited.limit == nil { limited.limit = Self.storeListLimit }
        return try await reading(store) { _ in try await source.records(matching: limited) }
    }

    /// The record named `id` (a number, or an `apns-id`), with lint findings; nil when there is none.
    func record(_ id: String) async throws -> RecordedRequest? {
        guard let store else { return try await source.record(id) }
        return try await reading(store) { _ in try await source.record(id) }
    }

    /// A page of the search grammar's matches, newest first, and the newest record's number when it began (a live
    /// stream opened from there misses nothing).
    func search(_ query: SearchQuery, before: UInt64?, limit: Int) async throws -> (page: SearchPage, newest: UInt64) {
        if let store {
            return try await reading(store) { store in
                let newest = try await store.newestID()
                return (try await store.search(query, before: before, limit: limit), newest)
            }
        }
        let recorder = self.recorder
        let newest = recorder.lastSequence
        // The search may read the record file: off the server's event loops.
        let page = try await Task.detached { try recorder.search(query, before: before, limit: limit) }.value
        return (page, newest)
    }

    /// The number of the newest record.
    func newestID() async throws -> UInt64 {
        guard let store else { return recorder.lastSequence }
        return try await reading(store) { try await $0.newestID() }
    }

    /// Counters over every record (with a store: every instance's).
    func statistics() async throws -> RecorderStatistics {
        guard let store else { return recorder.statistics }
        return try await reading(store) { try await $0.statistics() }
    }

    /// Forgets the records (with a store: the namespace's, for every instance, and this server's ring); returns how
    /// many there were.
    func clear() async throws -> Int {
        guard let store else {
            let count = recorder.records(matching: RecordFilter()).count
            recorder.clear()
            return count
        }
        let count = try await reading(store) { store in
            let count = try await store.statistics().total
            try await store.clear()
            return count
        }
        recorder.clear()
        return count
    }

    /// Runs `body` on `store`; a store that fails is a 503 naming it, in the store's own words (no secrets).
    private func reading<Result: Sendable>(_ store: any RecordStore, _ body: (any RecordStore) async throws -> Result) async throws -> Result {
        do {
            return try await body(store)
        } catch {
            throw ControlAPIError(.serviceUnavailable, "The shared store could not be read: \(store.describe(error))")
        }
    }
}
