import MockAPNs

/// Records from a live control plane, a recording file or a shared store, behind one interface.
enum RecordSource {
    /// A running mock's control plane.
    case live(ControlClient)
    /// A JSON Lines recording.
    case file(RecordFile)
    /// A shared PostgreSQL store (`--store`).
    case store(StoreSource)

    /// The records that match `filter`, oldest first. A file is streamed: only the matches are kept, and with a
    /// limit only the newest ones, read from the end of the file.
    func records(matching filter: RecordFilter) async throws(InspectError) -> [RecordedRequest] {
        switch self {
        case .live(let client): return try await client.records(matching: filter)
        case .file(let file):
            if let limit = filter.limit, limit >= 0 { return try file.newest(limit, matching: filter) }
            var matches: [RecordedRequest] = []
            try file.forEachRecord { record in
                if filter.matches(record) { matches.append(record) }
                return true
            }
            return matches
        case .store(let store): return try await store.records(matching: filter)
        }
    }

    /// The record with sequence number or apns-id `id`.
    func record(_ id: String) async throws(InspectError) -> RecordedRequest {
        switch self {
        case .live(let client):
            do {
                return try await client.record(id)
            } catch {
                guard case .notFound = error else { throw error }
                // The server's 404 names its HTTP route; a CLI user wants the command that lists what there is.
                throw .notFound("No record on \(client.baseURL.absoluteString) has sequence number or apns-id '\(id)'; "
                    + "`mockapns list --server \(client.baseURL.absoluteString)` shows the ones it keeps.")
            }
        case .file(let file):
            if let found = try file.record(id) { return found }
            throw .notFound("No record in \(file.path) has sequence number or apns-id '\(id)'; `mockapns list --file \(file.path)` shows them.")
        case .store(let store):
            return try await store.record(id)
        }
    }

    /// Every matching record from now on (live: server-sent events; file: appended lines), after those
    /// already present when `includeExisting` is set.
    func follow(matching filter: RecordFilter, includeExisting: Bool) throws(InspectError) -> AsyncThrowingStream<RecordedRequest, any Error> {
        switch self {
        case .live(let client): return try client.follow(matching: filter, includeExisting: includeExisting)
        case .file(let file): return try file.follow(matching: filter, includeExisting: includeExisting)
        case .store(let store): return store.follow(matching: filter, includeExisting: includeExisting)
        }
    }

    /// Where the records come from, for messages.
    var label: String {
        switch self {
        case .live(let client): return client.baseURL.absoluteString
        case .file(let file): return file.path
        case .store(let store): return store.label
        }
    }
}
