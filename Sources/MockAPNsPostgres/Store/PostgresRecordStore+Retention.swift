import Foundation
import MockAPNs
import PostgresNIO

extension PostgresRecordStore {
    /// Deletes the namespace's records past `retention` (not taking turns with other instances: see
    /// ``pruneExclusively(_:)``); how many went.
    @discardableResult
    public func prune(_ retention: RecordRetention) async throws -> Int {
        try await run { connection in try await self.prune(retention, on: connection) }
    }

    /// One pruning round on `connection` (inside the caller's transaction, if any). Whole partitions go first: a
    /// partition entirely older than the age limit, or entirely at or below the count limit's id, that holds only
    /// this namespace's records is dropped in one statement; what is left is deleted row by row, within the oldest
    /// partitions. Raises the namespace's prune mark and forgets search blocks no record is left in. The FCM records
    /// go by the same limits.
    func prune(_ retention: RecordRetention, on connection: PostgresConnection) async throws -> Int {
        let logger = self.logger, namespace = self.namespace
        // The FCM records by the same limits, counted apart: what this returns (and the prune mark) is the APNs records'.
        _ = try await pruneFCM(retention, on: connection)
        var cutoffID: Int64?
        if let keep = retention.keepNewest {
            cutoffID = try await connection.query("""
                SELECT id FROM mockapns_records WHERE namespace = \(namespace) ORDER BY id DESC OFFSET \(Int64(keep)) LIMIT 1
                """, logger: logger).collect().first?.decode(Int64.self)
        }
        let cutoffMillis = retention.receivedBeforeMillis
        guard cutoffID != nil || cutoffMillis != nil else { return 0 }
        var pruned = 0
        var highestGone: Int64 = 0
        var dropped = false
        for partition in try await partitionList(connection) {
            let row = try await connection.query(PostgresQuery(unsafeSQL: """
                SELECT min(namespace), max(namespace), max(id), count(*) FROM \(partition.quotedName)
                """), logger: logger).collect().first
            let (lowest, highest, maxID, count) = try row?.decode((String?, String?, Int64?, Int64).self) ?? (nil, nil, nil, Int64(0))
            let olderThanAge: Bool
            if let cutoffMillis, let bound = partition.upperBound { olderThanAge = bound <= cutoffMillis } else { olderThanAge = false }
            guard let maxID, count > 0 else {
                // Empty: one left behind by an earlier age limit goes; one ahead of need stays.
                if olderThanAge { try await drop(partition, on: connection) }
                continue
            }
            let belowCount = cutoffID.map { maxID <= $0 } ?? false
            guard olderThanAge || belowCount else { break }
            guard lowest == namespace, highest == namespace else { break }   // shared with another namespace: rows below
            try await drop(partition, on: connection)
            pruned += Int(count)
            highestGone = max(highestGone, maxID)
            dropped = true
        }
        // One statement per limit, each answered by its own index: the ids by (namespace, id), the age by the partition
        // bounds and the BRIN index on received times.
        var conditions: [String] = []
        if let cutoffID { conditions.append("id <= \(cutoffID)") }
        if let cutoffMillis { conditions.append("received_ms < \(cutoffMillis)") }
        for condition in conditions {
            let deleted = try await connection.query(PostgresQuery(unsafeSQL: """
                WITH gone AS (DELETE FROM mockapns_records WHERE namespace = $1 AND \(condition) RETURNING id)
                SELECT count(*), coalesce(max(id), 0) FROM gone
                """, binds: Self.binds(namespace)), logger: logger).collect().first
            let counted = try deleted?.decode((Int64, Int64).self)
            pruned += Int(counted?.0 ?? 0)
            highestGone = max(highestGone, counted?.1 ?? 0)
        }
        if dropped { partitions.withLock { $0.forgetKnown() } }
        guard pruned > 0 else { return 0 }
        _ = try await connection.query("""
            INSERT INTO mockapns_prune_marks (namespace, pruned_through) VALUES (\(namespace), \(highestGone))
            ON CONFLICT (namespace) DO UPDATE SET pruned_through = greatest(mockapns_prune_marks.pruned_through, EXCLUDED.pruned_through)
            """, logger: logger).collect()
        _ = try await connection.query("""
            DELETE FROM mockapns_search_blocks b WHERE b.namespace = \(namespace) AND b.last_id <= \(highestGone)
            AND NOT EXISTS (SELECT 1 FROM mockapns_records r WHERE r.namespace = \(namespace) AND r.id BETWEEN b.first_id AND b.last_id)
            """, logger: logger).collect()
        return pruned
    }

    /// A partition of the records table and the received time its rows stay below (nil: no bound).
    struct Partition: Sendable {
        var name: String
        var upperBound: Int64?
        /// The name as an SQL identifier.
        var quotedName: String { "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
    }

    /// Drops `partition`, waiting at most 5 s for the table lock (a long reader makes the round retry later rather
    /// than hold up the writers queued behind it).
    private func drop(_ partition: Partition, on connection: PostgresConnection) async throws {
        _ = try await connection.query("SET LOCAL lock_timeout = '5s'", logger: logger).collect()
        _ = try await connection.query(PostgresQuery(unsafeSQL: "DROP TABLE \(partition.quotedName)"), logger: logger).collect()
    }

    /// The records table's partitions, oldest first.
    func partitionList(_ connection: PostgresConnection) async throws -> [Partition] {
        let rows = try await connection.query("""
            SELECT c.relname::text, substring(pg_get_expr(c.relpartbound, c.oid) FROM 'TO \\(''?(-?[0-9]+)')::bigint AS upper
            FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
            WHERE i.inhparent = 'mockapns_records'::regclass ORDER BY upper NULLS LAST
            """, logger: logger).collect()
        return try rows.map { row in
            let (name, upper) = try row.decode((String, Int64?).self)
            return Partition(name: name, upperBound: upper)
        }
    }

    static func binds(_ text: String) -> PostgresBindings {
        var binds = PostgresBindings()
        binds.append(text)
        return binds
    }
}
