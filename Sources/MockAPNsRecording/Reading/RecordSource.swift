/// Where records are read from, whichever holds them: this mock's recorder (``RecorderRecords``), a shared store
/// (``StoreRecords``), and in the command line a record file or a running mock's control plane. The control plane's
/// routes and `mockapns list`, `show`, `expect` and `export` read through it alike.
public protocol RecordSource: Sendable {
    /// The records matching `filter`, oldest first (with a `limit`, the newest that many).
    func records(matching filter: RecordFilter) async throws -> [RecordedRequest]
    /// The record numbered `id`, or else the one whose `apns-id` is `id` (in any case); nil when there is none.
    func record(_ id: String) async throws -> RecordedRequest?
    /// Where the records come from, for messages.
    var label: String { get }
}
