/// A ``RecordSource`` over a shared ``RecordStore``: every instance's records, numbered by the store-wide id, each
/// with its payload's lint findings (the store keeps the record, not the findings).
public struct StoreRecords: RecordSource {
    /// The store read.
    public let store: any RecordStore

    /// Reads `store`.
    public init(_ store: any RecordStore) {
        self.store = store
    }

    public func records(matching filter: RecordFilter) async throws -> [RecordedRequest] {
        try await store.records(matching: filter, before: nil).map { $0.withLint() }
    }

    public func record(_ id: String) async throws -> RecordedRequest? {
        try await store.record(RecordID(parsing: id))?.withLint()
    }

    public var label: String { store.label }
}
