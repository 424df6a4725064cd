import MockAPNsRecording

/// The records an inspection command reads, as its options chose them: a live control plane (`--server`,
/// `--ready-file`), a recording file (`--file`) or a shared store (`--store`). Each is a ``RecordSource``; this type
/// adds what differs between them: the follow mode of `tail`, and the command to suggest when a record is missing.
enum InspectSource {
    /// A running mock's control plane.
    case live(ControlClient)
    /// A JSON Lines recording.
    case file(RecordFile)
    /// A shared PostgreSQL store (`--store`).
    case store(StoreSource)

    /// The records, whichever holds them.
    var source: any RecordSource {
        switch self {
        case .live(let client): return client
        case .file(let file): return file
        case .store(let store): return store
        }
    }

    /// The records that match `filter`, oldest first. A file is streamed: only the matches are kept, and with a
    /// limit only the newest ones, read from the end of the file.
    func records(matching filter: RecordFilter) async throws(InspectError) -> [RecordedRequest] {
        do {
            return try await source.records(matching: filter)
        } catch {
            throw InspectError.wrapping(error, source: label)
        }
    }

    /// The record with sequence number or apns-id `id`; not finding it is an error naming the command that lists
    /// what there is.
    func record(_ id: String) async throws(InspectError) -> RecordedRequest {
        let found: RecordedRequest?
        do {
            found = try await source.record(id)
        } catch {
            throw InspectError.wrapping(error, source: label)
        }
        if let found { return found }
        switch self {
        case .live(let client):
            throw .notFound("No record on \(client.baseURL.absoluteString) has sequence number or apns-id '\(id)'; "
                + "`mockapns list --server \(client.baseURL.absoluteString)` shows the ones it keeps.")
        case .file(let file):
            throw .notFound("No record in \(file.path) has sequence number or apns-id '\(id)'; `mockapns list --file \(file.path)` shows them.")
        case .store(let store):
            throw .notFound("No record in \(store.label) has id or apns-id '\(id)'; `mockapns list --store URL` shows them.")
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
    var label: String { source.label }
}
