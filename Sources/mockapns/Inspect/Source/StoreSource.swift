import MockAPNs
import MockAPNsPostgres

/// Records read from a shared PostgreSQL store (`--store postgres://…`): every instance's records in the store's
/// namespace, numbered by the store-wide id (what `show ID` and `--since` take).
struct StoreSource {
    /// The store; opened (and its schema checked) on first use.
    let store: PostgresRecordStore

    /// The database, without its password.
    var label: String { store.label }

    /// The records that match `filter`, oldest first.
    func records(matching filter: RecordFilter) async throws(InspectError) -> [RecordedRequest] {
        try await run { try await store.records(matching: filter, before: nil) }
    }

    /// The record with store-wide id or apns-id `id`.
    func record(_ id: String) async throws(InspectError) -> RecordedRequest {
        let found = try await run { try await store.record(RecordID(parsing: id)) }
        guard let found else {
            throw .notFound("No record in \(label) has id or apns-id '\(id)'; `mockapns list --store URL` shows them.")
        }
        return found
    }

    /// Counters over the store's records.
    func statistics() async throws(InspectError) -> RecorderStatistics {
        try await run { try await store.statistics() }
    }

    /// How far back a follower looks for records that became visible after higher ids did: instances commit their
    /// batches (at most 2 000 records each) independently, so a lower id can appear late.
    static let lookBack: UInt64 = 20_000

    /// Every matching record from now on (after those already there when `includeExisting`, from `filter.since`),
    /// polled every 200 ms: new ids in order, and, once, any id that became visible late (a slower instance's
    /// batch), so each record is printed exactly once. Records pruned by retention before they were read are not
    /// reported as gaps (the store does not keep what it pruned).
    func follow(matching filter: RecordFilter, includeExisting: Bool) -> AsyncThrowingStream<RecordedRequest, any Error> {
        let store = self.store
        return AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    var cursor = includeExisting ? (filter.since ?? 0) : try await store.lastID()
                    let start = cursor   // nothing at or below it is printed (it was there before, or before --since)
                    var delivered = Set<UInt64>()
                    while !Task.isCancelled {
                        var fresh = try await store.ids(after: cursor, matching: filter, limit: 2_000)
                        if cursor > 0 {
                            let low = cursor > Self.lookBack ? cursor - Self.lookBack : 1
                            fresh += try await store.ids(in: low...cursor, matching: filter).filter { $0 > start }
                        }
                        fresh = fresh.filter { !delivered.contains($0) }.sorted()
                        for record in try await store.records(ids: fresh) {
                            continuation.yield(record)
                            delivered.insert(record.seq)
                        }
                        cursor = max(cursor, fresh.last ?? cursor)
                        let floor = cursor > Self.lookBack ? cursor - Self.lookBack : 0
                        delivered = delivered.filter { $0 >= floor }
                        if fresh.count < 2_000 { try await Task.sleep(for: .milliseconds(200)) }
                    }
                    continuation.finish()
                } catch is CancellationError {
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: InspectError.store(store.describe(error)))
                }
                await store.close()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// Runs `body`, then closes the connection; a failure becomes one sentence about the store.
    private func run<Result: Sendable>(_ body: () async throws -> Result) async throws(InspectError) -> Result {
        do {
            let result = try await body()
            await store.close()
            return result
        } catch {
            await store.close()
            throw .store(store.describe(error))
        }
    }
}
