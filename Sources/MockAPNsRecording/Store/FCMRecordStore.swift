/// Where the FCM front door's records go beside the APNs ones (`serve --fcm --store URL`): one row per FCM request,
/// kept as the record's JSON with the few fields a reader narrows by, so that every instance sharing the store, and
/// `list --fcm --store`, read every instance's FCM records, each numbered by the store-wide id.
///
/// The front door's writer calls ``appendFCM(_:)`` from a task of its own, never from an event loop; readers call the
/// rest from their request tasks.
public protocol FCMRecordStore: Sendable {
    /// Where the records go, safe to print.
    var label: String { get }

    /// Stores `batch` (numbered by its instance, in `seq` order) as one unit: when this returns every record is
    /// stored; when it throws, the caller keeps the batch and may hand it over again (a store that cannot tell
    /// whether a failed write went through sorts that out itself, so nothing is stored twice).
    func appendFCM(_ batch: [StoredFCMRecord]) async throws

    /// The newest `limit` records that `narrowing` lets through, numbered below `before` (any, when nil), newest
    /// first, each with its store-wide id as `seq` and the instance that wrote it.
    func fcmRecords(_ narrowing: FCMRecordNarrowing, before: UInt64?, limit: Int) async throws -> [StoredFCMRecord]

    /// Forgets the namespace's FCM records; returns how many there were.
    @discardableResult
    func clearFCM() async throws -> Int

    /// `error`, thrown by one of the methods above, in a sentence without secrets.
    func describe(_ error: any Error) -> String
}

/// One FCM record as a store keeps it.
public struct StoredFCMRecord: Sendable, Equatable {
    /// The writing instance's number for it, or, read back, the store-wide id.
    public var seq: UInt64
    /// The instance that answered it (nil before it is stored: the store names its own instance).
    public var instance: String?
    /// When it arrived, milliseconds since 1970.
    public var receivedAtMillis: Int64
    /// The project of the request's path.
    public var project: String
    /// `projects/P/messages/ID` when the message was accepted; nil when it was refused.
    public var name: String?
    /// The HTTP status answered.
    public var status: Int
    /// The record as the control API serves it (its JSON text).
    public var line: String

    public init(seq: UInt64, instance: String? = nil, receivedAtMillis: Int64, project: String, name: String?, status: Int,
                line: String) {
        self.seq = seq
        self.instance = instance
        self.receivedAtMillis = receivedAtMillis
        self.project = project
        self.name = name
        self.status = status
        self.line = line
    }

    /// The last part of ``name`` (the message id), by which `GET /api/v1/fcm/messages/{id}` finds it.
    public var messageID: String? { name.map(Self.messageID(of:)) }

    /// The last part of a message name (`projects/P/messages/ID` → `ID`; the whole of it when it has no `/`).
    public static func messageID(of name: String) -> String {
        guard let slash = name.lastIndex(of: "/") else { return name }
        return String(name[name.index(after: slash)...])
    }
}

/// The fields a store narrows FCM records by before the reader applies the rest of its filter to each record; nil
/// lets anything through.
public struct FCMRecordNarrowing: Sendable, Equatable {
    public var project: String?
    /// The whole name, or its last part (the message id).
    public var name: String?
    public var status: Int?
    /// The record's store-wide id.
    public var seq: UInt64?

    public init(project: String? = nil, name: String? = nil, status: Int? = nil, seq: UInt64? = nil) {
        self.project = project
        self.name = name
        self.status = status
        self.seq = seq
    }
}
