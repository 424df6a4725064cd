import MockAPNsRecording
import MockAPNsPostgres

/// Records read from a shared PostgreSQL store (`--store postgres://…`): every instance's records in the store's
/// namespace, numbered by the store-wide id (what `show ID` and `--since` take). Each read goes through
/// ``StoreRecords`` and closes the connection after it.
struct StoreSource: RecordSource {
    /// The store; opened (and its schema checked) on first use.
    let store: PostgresRecordStore

    /// The database, without its password.
    var label: String { store.label }

    /// The records that match `filter`, oldest first.
    func records(matching filter: RecordFilter) async throws(InspectError) -> [RecordedRequest] {
        try await run { try await StoreRecords(store).records(matching: filter) }
    }

    /// The record with store-wide id or apns-id `id`, or nil.
    func record(_ id: String) async throws(InspectError) -> RecordedRequest? {
        try await run { try await StoreRecords(store).record(id) }
    }

    /// Counters over the store's records.
    func statistics() async throws(InspectError) -> RecorderStatistics {
        try await run { try await store.statistics() }
    }

    /// Every matching record from now on (after those already there when `includeExisting`, from `filter.since`):
    /// ``PostgresRecordStore/follow(matching:after:)``, closing the store's connection when it ends. `onPruned` hears
    /// of ids retention deleted before they were read.
    func follow(matching filter: RecordFilter, includeExisting: Bool,
                onPruned: @escaping @Sendable (ClosedRange<UInt64>) -> Void = { _ in }) -> AsyncThrowingStream<RecordedRequest, any Error> {
        let store = self.store
        return AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    let start = includeExisting ? (filter.since ?? 0) : try await store.newestID()
                    for try await batch in store.follow(matching: filter, after: start) {
                        if let pruned = batch.pruned { onPruned(pruned) }
                        for record in batch.records { continuation.yield(record) }
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
    func run<Result: Sendable>(_ body: () async throws -> Result) async throws(InspectError) -> Result {
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
