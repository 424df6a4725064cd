/// Where records live beyond one process: what the recorder hands finished records to, and what the control plane
/// and the CLI's readers ask. One interface for the embedded stores (the memory ring with its optional JSON Lines
/// file, ``MemoryRecordStore``) and the shared ones (PostgreSQL, in the `MockAPNsPostgres` module), so the code
/// above it does not know which one it talks to and no SQL leaks out of the store that needs it.
///
/// Every method may do I/O (a file, a database round trip): call them from tasks, never from an event-loop
/// thread. The recorder does so through a ``BatchWriter``, one consuming task behind a bounded queue.
public protocol RecordStore: Sendable {
    /// Where the records go, for messages: safe to print (a database URL without its password).
    var label: String { get }

    /// Stores `batch` (records already numbered by their recorder, in `seq` order; their `lint` may still be empty:
    /// a store that keeps findings fills them in from the payload) as one unit: when this returns,
    /// every record of the batch is stored; when it throws, the caller keeps the batch and may try it again.
    func append(_ batch: [RecordedRequest]) async throws

    /// The newest `filter.limit` records (all, when nil) that match `filter` and are numbered below `before`
    /// (any, when nil), oldest first. Pass the lowest `seq` of a page as `before` for the next older page.
    /// A shared store numbers its records with one store-wide id, which it returns as `seq`.
    func records(matching filter: RecordFilter, before: UInt64?) async throws -> [RecordedRequest]

    /// The record `id` names (its number, or the `apns-id` its answer carried), or nil when the store has none.
    func record(_ id: RecordID) async throws -> RecordedRequest?

    /// The newest `limit` records numbered below `before` (any, when nil) that match `query` (the dashboard's search
    /// grammar), newest first, with lint findings, and where the next older page starts. A shared store narrows with
    /// its indexes and then applies ``SearchQuery/matches(_:)`` itself, so every store answers a query alike.
    func search(_ query: SearchQuery, before: UInt64?, limit: Int) async throws -> SearchPage

    /// The number of the newest record (0 when there is none): where a follower of new records starts.
    func newestID() async throws -> UInt64

    /// Every record numbered above `id` that matches `filter` (its `since` and `limit` ignored), oldest first, in
    /// the batches the store reads them in, each saying which unread ids retention pruned meanwhile; an empty batch
    /// now and then (a poll that found nothing) lets the consumer keep time, write heartbeats or notice it should
    /// stop. Pull-driven, so a slow consumer costs at most a batch. Ends when the consuming task is cancelled; throws
    /// when the store fails.
    func follow(matching filter: RecordFilter, after id: UInt64) -> AsyncThrowingStream<RecordStoreBatch, any Error>

    /// Counters over every record the store holds (by status, reason and push type).
    func statistics() async throws -> RecorderStatistics

    /// Forgets every record (in a shared store: of this store's namespace only).
    func clear() async throws

    /// Forgets the records `retention` says to let go of, oldest first; returns how many were forgotten.
    @discardableResult
    func prune(_ retention: RecordRetention) async throws -> Int

    /// A sentence for `error` (thrown by this store) that an operator can act on, without secrets.
    func describe(_ error: any Error) -> String
}

extension RecordStore {
    /// `"\(error)"`: stores whose errors hide their detail in `description` say more.
    public func describe(_ error: any Error) -> String { "\(error)" }
}
