import JSON
import MockAPNsRecording

/// The FCM records of a shared store, read through ``FCMExpectation``'s filters: the store narrows by project,
/// message name and status, and each record it returns is checked against the whole filter, so the store and the
/// front door's memory answer a filter alike. What `/api/v1/fcm/…` reads under `serve --store`, and what
/// `list --fcm --store` reads without a running mock.
public struct FCMStoredRecords: Sendable {
    /// The store.
    public let store: any FCMRecordStore

    /// How many records a list returns when it sets no limit: weeks of messages are not one JSON answer.
    public static let listLimit = 10_000
    /// Records read per query, newest first.
    static let pageSize = 500

    public init(_ store: any FCMRecordStore) {
        self.store = store
    }

    /// The newest `limit` (``listLimit`` when nil) records matching `filter`, oldest first, as the control API serves
    /// them, each with its store-wide id as `seq` and the `instance` that answered it.
    public func records(matching filter: FCMExpectation.Filter, limit: Int? = nil) async throws -> [JSONValue] {
        let wanted = max(0, limit ?? Self.listLimit)
        let matches = FCMExpectation.matcher(filter)
        let narrowing = FCMRecordNarrowing(project: filter.project, name: filter.name, status: filter.status)
        var found: [JSONValue] = []
        var before: UInt64?
        while found.count < wanted {
            let rows = try await store.fcmRecords(narrowing, before: before, limit: Self.pageSize)
            for row in rows {
                let record = try Self.json(row)
                if matches(record) { found.append(record) }
                if found.count == wanted { break }
            }
            guard rows.count == Self.pageSize, let oldest = rows.last else { break }
            before = oldest.seq
        }
        return found.reversed()
    }

    /// The newest record whose name, or its last part (the message id), is one of `ids`, or whose store-wide id one
    /// of them is; nil when there is none.
    public func record(_ ids: Set<String>) async throws -> JSONValue? {
        for id in ids.sorted() {
            if let row = try await store.fcmRecords(FCMRecordNarrowing(name: id), before: nil, limit: 1).first { return try Self.json(row) }
        }
        for seq in ids.compactMap({ UInt64($0) }) {
            if let row = try await store.fcmRecords(FCMRecordNarrowing(seq: seq), before: nil, limit: 1).first { return try Self.json(row) }
        }
        return nil
    }

    /// A stored row as the record's JSON, numbered by the store.
    static func json(_ row: StoredFCMRecord) throws -> JSONValue {
        guard case .object(var members) = try JSONValue.parse(row.line) else {
            throw FCMStoredRecordError(seq: row.seq)
        }
        members.removeAll { $0.key == "seq" || $0.key == "instance" }
        members.insert(.init("seq", .integer(Int64(clamping: row.seq))), at: 0)
        if let instance = row.instance { members.insert(.init("instance", .string(instance)), at: 1) }
        return .object(members)
    }
}

/// A stored FCM record that is not a JSON object (written by something other than the mock).
struct FCMStoredRecordError: Error, CustomStringConvertible {
    let seq: UInt64
    var description: String { "the FCM record \(seq) in the store is not a JSON object" }
}
