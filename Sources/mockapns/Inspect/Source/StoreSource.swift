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
