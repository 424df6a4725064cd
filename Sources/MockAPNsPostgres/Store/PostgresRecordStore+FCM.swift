import MockAPNsRecording
import PostgresNIO

/// The FCM front door's records (`serve --fcm --store URL`) in `mockapns_fcm_records`, one row per request: the
/// record's JSON, and the project, message name and status a reader narrows by. Written over a connection of the
/// store's own (``fcmSession``), so a row never lands inside the APNs writer's open transaction.
extension PostgresRecordStore: FCMRecordStore {
    public func appendFCM(_ batch: [StoredFCMRecord]) async throws {
        var batch = batch
        try await fcmSession.endStalledBackends(timeout: writeTimeout)
        // The last batch failed after its INSERT may have committed: what of it is stored is not written twice.
        if let uncertain = uncertainFCMBatch.withLock({ $0 }), batch.contains(where: { $0.seq == uncertain.seq }) {
            if try await holdsFCM(seq: uncertain.seq, receivedAtMillis: uncertain.receivedAtMillis) {
                batch.removeAll { $0.seq <= uncertain.seq }
            }
        }
        guard let last = batch.last else {
            uncertainFCMBatch.withLock { $0 = nil }
            return
        }
        let namespace = self.namespace, instance = self.instance, logger = self.logger
        let seqs = batch.map { Int64(bitPattern: $0.seq) }, received = batch.map(\.receivedAtMillis)
        let projects = batch.map(\.project), statuses = batch.map { Int32(clamping: $0.status) }, lines = batch.map(\.line)
        // No NULL in a bound array: a refused request's missing name travels as '' (no accepted name is empty).
        let names = batch.map { $0.name ?? "" }, ids = batch.map { $0.messageID ?? "" }
        do {
            try await fcmSession.run(timeout: writeTimeout) { connection in
                _ = try await connection.query("""
                    INSERT INTO mockapns_fcm_records (namespace, instance, seq, received_ms, project, name, message_id, status, line)
                    SELECT \(namespace), \(instance), s, r, p, nullif(n, ''), nullif(m, ''), st, l
                    FROM unnest(\(seqs)::bigint[], \(received)::bigint[], \(projects)::text[], \(names)::text[], \(ids)::text[],
                                \(statuses)::integer[], \(lines)::text[]) AS u(s, r, p, n, m, st, l)
                    """, logger: logger).collect()
            }
            uncertainFCMBatch.withLock { $0 = nil }
        } catch {
            uncertainFCMBatch.withLock { $0 = (last.seq, last.receivedAtMillis) }
            throw error
        }
    }

    /// Whether this instance's FCM record numbered `seq`, received at `receivedAtMillis`, is stored (the time tells
    /// it from a record of an earlier run under the same instance name, which numbered from 1 again).
    private func holdsFCM(seq: UInt64, receivedAtMillis: Int64) async throws -> Bool {
        let namespace = self.namespace, instance = self.instance, logger = self.logger
        return try await fcmSession.run(timeout: writeTimeout) { connection in
            try await !connection.query("""
                SELECT 1 FROM mockapns_fcm_records WHERE namespace = \(namespace) AND instance = \(instance)
                AND seq = \(Int64(bitPattern: seq)) AND received_ms = \(receivedAtMillis) LIMIT 1
                """, logger: logger).collect().isEmpty
        }
    }

    public func fcmRecords(_ narrowing: FCMRecordNarrowing, before: UInt64?, limit: Int) async throws -> [StoredFCMRecord] {
        try await requireSchemaOnce()
        var query = StoreQueryBuilder(namespace: namespace)
        if let project = narrowing.project { query.add("project = ", project) }
        // By the message id's index; the reader checks a whole name against each record.
        if let name = narrowing.name { query.add("message_id = ", StoredFCMRecord.messageID(of: name)) }
        if let status = narrowing.status { query.add("status = ", Int32(clamping: status)) }
        if let seq = narrowing.seq { query.add("id = ", Int64(clamping: seq)) }
        if let before { query.add("id < ", Int64(clamping: before)) }
        let sql = "SELECT id, instance, received_ms, project, name, status, line FROM mockapns_fcm_records WHERE "
            + "\(query.conditions) ORDER BY id DESC LIMIT \(max(0, limit))"
        return try await rows(PostgresQuery(unsafeSQL: sql, binds: query.binds)).map { row in
            let (id, instance, received, project, name, status, line) = try row.decode((Int64, String, Int64, String, String?, Int32, String).self)
            return StoredFCMRecord(seq: UInt64(bitPattern: id), instance: instance, receivedAtMillis: received, project: project,
                                   name: name, status: Int(status), line: line)
        }
    }

    @discardableResult
    public func clearFCM() async throws -> Int {
        let query = StoreQueryBuilder(namespace: namespace)
        return try await count(PostgresQuery(unsafeSQL: "WITH gone AS (DELETE FROM mockapns_fcm_records WHERE \(query.conditions) "
                                             + "RETURNING 1) SELECT count(*) FROM gone", binds: query.binds))
    }

    /// Deletes the namespace's FCM records past `retention` on `connection`, as the APNs records are (the newest
    /// `keepNewest` FCM records stay, none received before the age limit); how many went.
    func pruneFCM(_ retention: RecordRetention, on connection: PostgresConnection) async throws -> Int {
        let namespace = self.namespace
        var pruned = 0
        if let keep = retention.keepNewest {
            let cutoff = try await connection.query("""
                SELECT id FROM mockapns_fcm_records WHERE namespace = \(namespace) ORDER BY id DESC OFFSET \(Int64(keep)) LIMIT 1
                """, logger: logger).collect().first?.decode(Int64.self)
            if let cutoff {
                pruned += try await deletedCount(connection, "id <= \(cutoff)")
            }
        }
        if let before = retention.receivedBeforeMillis {
            pruned += try await deletedCount(connection, "received_ms < \(before)")
        }
        return pruned
    }

    private func deletedCount(_ connection: PostgresConnection, _ condition: String) async throws -> Int {
        let row = try await connection.query(PostgresQuery(unsafeSQL: """
            WITH gone AS (DELETE FROM mockapns_fcm_records WHERE namespace = $1 AND \(condition) RETURNING 1) SELECT count(*) FROM gone
            """, binds: Self.binds(namespace)), logger: logger).collect().first
        return Int(try row?.decode(Int64.self) ?? 0)
    }
}
