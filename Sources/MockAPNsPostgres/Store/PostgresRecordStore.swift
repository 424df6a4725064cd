import Support
import Foundation
import APNsModel
import Logging
import MockAPNs
import PostgresNIO
import Synchronization

/// The shared record store on PostgreSQL (`mockapns serve --store postgres://…`): several mocks write their records
/// into one table, and any reader (`mockapns list --store`, another instance) sees them all.
///
/// Each record is one row: a store-wide id (`bigserial`, returned to readers as the record's `seq`), the instance
/// that answered it, the namespace (`--store-namespace`: mocks in different namespaces share the database without
/// seeing each other's records), the instance's own `seq`, the columns searches filter on (indexed), and the
/// record's JSON line as the recorder writes it to a `--record` file. Batches arrive from the recorder's store
/// writer (a task of its own, off the loops) and go in as one `COPY … FROM STDIN` with the batch's search block, in one
/// transaction committed without waiting for the disk unless the mock answers only once records are written
/// (``synchronousCommit``, `--record-sync`).
///
/// The table is partitioned by the time each record was received (one partition per day unless the store was made
/// with another span): partitions are created ahead of the records that need them, and retention by age drops whole
/// partitions.
public final class PostgresRecordStore: RecordStore {
    /// The URL it connects to (its password is never printed: ``label`` is the redacted form).
    public let url: PostgresStoreURL
    /// This mock's name in the records it writes (`--instance-name`, default host:port).
    public var instance: String { instanceName.withLock { $0 } }
    private let instanceName: Locked<String>
    /// The namespace it reads and writes (`--store-namespace`, default empty).
    public let namespace: String
    private let session: PostgresSession
    /// A connection of its own for pruning: its transaction must not take in the writer's inserts.
    private let pruneSession: PostgresSession
    /// A connection of its own for the FCM front door's records, for the same reason.
    let fcmSession: PostgresSession
    let logger: Logger
    /// This store's name in leases.
    private let leaseHolder = StoreLease.makeHolder()
    /// Whether a reader already checked the schema version (once per store, not per query).
    private let schemaChecked = Atomic<Bool>(false)
    /// The newest record (`seq`, received time) of the last batch whose `append` failed: its COPY may have committed
    /// with only the answer lost (the connection dropped at the wrong moment), and the writer retries it.
    let uncertainBatch = Locked<(seq: UInt64, receivedAtMillis: Int64)?>(nil)
    /// The same for the last batch of FCM records (``appendFCM(_:)``).
    let uncertainFCMBatch = Locked<(seq: UInt64, receivedAtMillis: Int64)?>(nil)
    /// The last batch's COPY buffer, cleared and filled again by the next batch (its pages stay mapped).
    private let spareRows = Locked<ByteBuffer?>(nil)
    /// How instances take turns on this store (migrations, pruning).
    public let events: StoreEvents
    /// Whether a batch's commit waits for the disk: true when answers wait for records (`--record-sync`). A batch
    /// of a mock that answers first is committed with `synchronous_commit = off`: a database crash may then lose its
    /// last few hundred milliseconds of records, which the recording contract already allows for a mock that answers
    /// before writing.
    public let synchronousCommit: Bool
    /// The span of the store's partitions (read at first write) and the partitions known to exist, by start.
    let partitions = Locked(PartitionSpans())
    /// The partition span to use if this store is the one that partitions the table (nil: one day).
    private let requestedPartitionSpan: Int64?
    /// How many search blocks one step of a word search reads (newest first); a test lowers it to page through
    /// blocks.
    let searchBlocksPerStep: Int
    /// The writer's watchdog (`--store-write-timeout`): a batch's transaction, or the check of a batch whose commit is
    /// uncertain, that has not finished by then is abandoned and its connection closed. The writer then holds the
    /// batch, answers 500 while it cannot write, and retries on a new connection.
    public let writeTimeout: Duration
    /// The default ``writeTimeout``: a batch of 2 000 records commits in milliseconds on a healthy server.
    public static let defaultWriteTimeout: Duration = .seconds(5)

    /// A store on `url` for `instance` in `namespace`; nothing is opened until ``open()`` or the first use.
    public convenience init(url: PostgresStoreURL, instance: String, namespace: String = "", events: StoreEvents = .notify,
                            synchronousCommit: Bool = true, partitionSpanMillis: Int64? = nil,
                            writeTimeout: Duration = PostgresRecordStore.defaultWriteTimeout,
                            logger: Logger = Logger(label: "mockapns.store")) {
        self.init(url: url, instance: instance, namespace: namespace, events: events, synchronousCommit: synchronousCommit,
                  partitionSpanMillis: partitionSpanMillis, searchBlocksPerStep: 64, writeTimeout: writeTimeout, logger: logger)
    }

    /// `init(url:instance:namespace:events:synchronousCommit:partitionSpanMillis:writeTimeout:logger:)` reading
    /// `searchBlocksPerStep` blocks a step of a word search.
    init(url: PostgresStoreURL, instance: String, namespace: String = "", events: StoreEvents = .notify,
         synchronousCommit: Bool = true, partitionSpanMillis: Int64? = nil, searchBlocksPerStep: Int,
         writeTimeout: Duration = PostgresRecordStore.defaultWriteTimeout,
         logger: Logger = Logger(label: "mockapns.store")) {
        self.url = url
        self.writeTimeout = writeTimeout
        self.searchBlocksPerStep = max(1, searchBlocksPerStep)
        self.events = events
        self.synchronousCommit = synchronousCommit
        requestedPartitionSpan = partitionSpanMillis
        instanceName = Locked(instance)
        self.namespace = namespace
        self.logger = logger
        session = PostgresSession(url: url, logger: logger, applicationName: "mockapns records")
        pruneSession = PostgresSession(url: url, logger: logger, applicationName: "mockapns prune")
        fcmSession = PostgresSession(url: url, logger: logger, applicationName: "mockapns fcm records")
    }

    /// The database, without its password.
    public var label: String { url.redacted }

    /// Connects and brings the schema up to date (under the migration lock): what `serve --store` does before it
    /// listens, so a wrong URL, password or schema stops it with one clear line. Returns the versions.
    ///
    /// - Throws: ``PostgresStoreError``.
    @discardableResult
    public func open() async throws(PostgresStoreError) -> (from: Int, to: Int) {
        var configured = StoreMigrator(label: label, logger: logger)
        configured.events = events
        configured.partitionSpanMillis = requestedPartitionSpan
        let migrator = configured
        do {
            let outcome = try await session.run { connection in try await migrator.migrate(connection) }
            try await ensurePartitions(around: [Int64(Date().timeIntervalSince1970 * 1000)])
            return (outcome.from, outcome.to)
        } catch {
            throw PostgresStoreError.describing(error, store: label)
        }
    }

    /// The database's schema version and the newest this build supports, without migrating.
    ///
    /// - Throws: ``PostgresStoreError``.
    public func schemaVersion() async throws(PostgresStoreError) -> (found: Int, supported: Int) {
        let migrator = StoreMigrator(label: label, logger: logger)
        do {
            let found = try await session.run { connection in try await migrator.currentVersion(connection) }
            return (found, StoreSchema.latestVersion)
        } catch {
            throw PostgresStoreError.describing(error, store: label)
        }
    }

    /// Checks the schema is exactly this build's (readers do not migrate a database they only read).
    private func requireSchema() async throws {
        let (found, supported) = try await schemaVersion()
        if found > supported { throw PostgresStoreError.newerSchema(found: found, supported: supported, store: label) }
        if found < supported {
            throw PostgresStoreError.unavailable("the store \(label) has schema version \(found), this mockapns needs "
                + "\(supported): run `mockapns store migrate --store URL` (or start `mockapns serve --store URL` once)")
        }
    }

    /// Names this instance in the records written from now on: the CLI's default name is host:port, and with
    /// `--port 0` the port is known only once the server is listening.
    public func rename(instance: String) {
        instanceName.withLock { $0 = instance }
    }

    /// Closes the connections.
    public func close() async {
        await session.close()
        await pruneSession.close()
        await fcmSession.close()
    }

    /// `prune`, by one instance at a time: in a transaction holding the prune lock, or not at all (nil) when another
    /// instance holds it. The background retention of `serve --retain-count/--retain-age` calls this.
    public func pruneExclusively(_ retention: RecordRetention) async throws -> Int? {
        let logger = self.logger, events = self.events, lease = pruneLease
        return try await pruneSession.run { connection in
            switch events {
            case .notify:
                return try await connection.transaction(logger: logger) {
                    let locked = try await connection.query(
                        "SELECT pg_try_advisory_xact_lock(\(StoreSchema.pruneLockKey))", logger: logger).collect()
                    guard try locked.first?.decode(Bool.self) == true else { return nil }
                    return try await self.prune(retention, on: connection)
                }
            case .poll:
                guard try await lease.tryAcquire(connection, logger: logger) else { return nil }
                do {
                    let pruned = try await connection.transaction(logger: logger) { try await self.prune(retention, on: connection) }
                    try await lease.release(connection, logger: logger)
                    return pruned
                } catch {
                    try? await lease.release(connection, logger: logger)
                    throw error
                }
            }
        }
    }

    /// The `prune` lease of ``StoreEvents/poll``: a round lasts well under its five minutes.
    private var pruneLease: StoreLease { StoreLease(name: "prune", holder: leaseHolder, duration: .seconds(300)) }

    /// Writes `batch` with one COPY. A batch retried after a failure (the writer's held records, the failed batch
    /// first) is checked first: what of it the store already holds (the failure came after the commit) is not
    /// written twice.
    public func append(_ batch: [RecordedRequest]) async throws {
        var batch = batch
        // A connection the watchdog abandoned may still commit once its server process runs again: end it first.
        try await session.endStalledBackends(timeout: writeTimeout)
        if let uncertain = uncertainBatch.withLock({ $0 }), batch.contains(where: { $0.seq == uncertain.seq }) {
            if try await holds(seq: uncertain.seq, receivedAtMillis: uncertain.receivedAtMillis) {
                batch.removeAll { $0.seq <= uncertain.seq }
            }
        }
        guard let last = batch.last else {
            uncertainBatch.withLock { $0 = nil }
            return
        }
        let (rows, words) = Self.copyRows(batch, namespace: namespace, instance: instance, reusing: spareRows.withLock { $0.take() })
        defer { spareRows.withLock { $0 = rows } }
        do {
            try await ensurePartitions(around: batch.map(\.receivedAtMillis))
            do {
                try await write(rows, words: words)
            } catch let error as PSQLError where error.sqlState == "23514" {
                // No partition for a row: retention dropped one this store thought was there. Learn again, once.
                partitions.withLock { $0.forgetKnown() }
                try await ensurePartitions(around: batch.map(\.receivedAtMillis))
                try await write(rows, words: words)
            }
            uncertainBatch.withLock { $0 = nil }
        } catch {
            uncertainBatch.withLock { $0 = (last.seq, last.receivedAtMillis) }
            throw error
        }
    }

    /// One transaction: the rows by COPY, then the batch's search block over the ids they took (from the sequence's
    /// next value before the COPY to its value after; other instances' ids in between only widen the range).
    private func write(_ rows: ByteBuffer, words: String) async throws {
        let logger = self.logger, namespace = self.namespace, synchronous = synchronousCommit
        try await session.run(timeout: writeTimeout) { connection in
            try await connection.transaction(logger: logger) {
                if !synchronous { _ = try await connection.query("SET LOCAL synchronous_commit = off", logger: logger).collect() }
                // The lowest id the COPY can take, read without taking one (the sequence caches one value at a time,
                // so every id handed out after this read is above it).
                let first = try await connection.query(
                    "SELECT CASE WHEN is_called THEN last_value + 1 ELSE last_value END FROM mockapns_records_id_seq", logger: logger)
                    .collect().first?.decode(Int64.self) ?? 1
                try await connection.copyFrom(table: "mockapns_records", columns: Self.copyColumns, logger: logger) { writer in
                    try await writer.write(rows)
                }
                if !words.isEmpty {
                    _ = try await connection.query("""
                        INSERT INTO mockapns_search_blocks (namespace, first_id, last_id, words)
                        VALUES (\(namespace), \(first), currval('mockapns_records_id_seq'), \(words))
                        """, logger: logger).collect()
                }
            }
        }
    }

    /// Whether this instance's record numbered `seq`, received at `receivedAtMillis`, is stored (the time tells it
    /// from a record of an earlier run under the same instance name, which numbered from 1 again).
    private func holds(seq: UInt64, receivedAtMillis: Int64) async throws -> Bool {
        var query = StoreQueryBuilder(namespace: namespace)
        query.add("instance = ", instance)
        query.add("seq = ", Int64(bitPattern: seq))
        query.add("received_ms = ", receivedAtMillis)
        return try await !rows(PostgresQuery(unsafeSQL: "SELECT 1 FROM mockapns_records WHERE \(query.conditions) LIMIT 1",
                                             binds: query.binds), timeout: writeTimeout).isEmpty
    }

    /// The columns each COPY row fills, in order (the id is the table's own).
    private static let copyColumns = ["namespace", "instance", "seq", "received_ms", "token", "topic", "push_type",
                                      "status", "reason", "apns_id", "connection_churn", "line", "search_text"]

    /// `batch` as COPY text rows: one encoder and one buffer for the whole batch (`spare`'s storage when given),
    /// and the distinct words of its search texts (its search block). Lint findings are filled in here, off the
    /// loops, through the encoder's memo of payloads already linted.
    static func copyRows(_ batch: [RecordedRequest], namespace: String, instance: String, reusing spare: ByteBuffer? = nil)
        -> (rows: ByteBuffer, words: String)
    {
        var rows = spare.map { CopyTextRows(reusing: $0, capacity: batch.count * 1_600) } ?? CopyTextRows(capacity: batch.count * 1_600)
        var words = SearchBlockWords()
        var encoder = RecordLineEncoder()
        for record in batch {
            rows.field(namespace)
            rows.field(instance)
            rows.field(Int64(bitPattern: record.seq))
            rows.field(record.receivedAtMillis)
            rows.field(record.deviceToken.map(Self.lowercasedHex))
            rows.field(record.header("apns-topic"))
            rows.field(record.header("apns-push-type"))
            rows.field(Int64(record.response.status))
            rows.field(record.response.reason)
            rows.field(record.response.apnsID.map(Self.lowercasedHex))
            rows.field(record.flagsConnectionChurn)
            encoder.withLine(for: record, linted: true) { line in rows.field(utf8: UnsafeBufferPointer(rebasing: line.dropLast())) }
            let searchText = SearchQuery.searchText(of: record)
            rows.field(searchText)
            words.add(searchText)
            rows.endRow()
        }
        return (rows.buffer, words.text)
    }

    /// `text` lowercased; a token or apns-id already in lowercase ASCII (the usual case) is returned as it is,
    /// unallocated.
    static func lowercasedHex(_ text: String) -> String {
        text.utf8.contains(where: { ($0 >= 0x41 && $0 <= 0x5A) || $0 >= 0x80 }) ? text.lowercased() : text
    }

    public func records(matching filter: RecordFilter, before: UInt64?) async throws -> [RecordedRequest] {
        try await requireSchemaOnce()
        var query = StoreQueryBuilder(namespace: namespace)
        query.add(filter: filter)
        if let before { query.add("id < ", Int64(clamping: before)) }
        var sql = "SELECT id, line, instance FROM mockapns_records WHERE \(query.conditions) ORDER BY id DESC"
        if let limit = filter.limit { sql += " LIMIT \(max(0, limit))" }
        let rows = try await rows(PostgresQuery(unsafeSQL: sql, binds: query.binds))
        return try rows.reversed().map { row in try Self.record(from: row) }
    }

    /// The ids of records matching `filter` numbered above `id`, lowest first, at most `limit`: what a follower polls.
    public func ids(after id: UInt64, matching filter: RecordFilter, limit: Int) async throws -> [UInt64] {
        try await requireSchemaOnce()
        var query = conditions(of: filter)
        query.add("id > ", Int64(clamping: id))
        let sql = "SELECT id FROM mockapns_records WHERE \(query.conditions) ORDER BY id LIMIT \(max(1, limit))"
        return try await rows(PostgresQuery(unsafeSQL: sql, binds: query.binds)).map { UInt64(bitPattern: try $0.decode(Int64.self)) }
    }

    /// The namespace's conditions and `filter`'s, but for its paging fields (`limit`, `since`): a follower pages by id.
    private func conditions(of filter: RecordFilter) -> StoreQueryBuilder {
        var query = StoreQueryBuilder(namespace: namespace)
        var unpaged = filter
        unpaged.limit = nil
        unpaged.since = nil
        query.add(filter: unpaged)
        return query
    }

    /// The highest record id of the namespace (0 when it holds none): where a follower of new records starts.
    public func newestID() async throws -> UInt64 {
        try await requireSchemaOnce()
        let query = StoreQueryBuilder(namespace: namespace)
        let sql = "SELECT coalesce(max(id), 0) FROM mockapns_records WHERE \(query.conditions)"
        return UInt64(bitPattern: try await rows(PostgresQuery(unsafeSQL: sql, binds: query.binds)).first?.decode(Int64.self) ?? 0)
    }

    /// The ids of records matching `filter` numbered in `range`, lowest first: a follower's look back for records
    /// whose batch committed after higher ids were already visible (instances commit independently).
    public func ids(in range: ClosedRange<UInt64>, matching filter: RecordFilter) async throws -> [UInt64] {
        try await requireSchemaOnce()
        var query = conditions(of: filter)
        query.add("id >= ", Int64(clamping: range.lowerBound))
        query.add("id <= ", Int64(clamping: range.upperBound))
        let sql = "SELECT id FROM mockapns_records WHERE \(query.conditions) ORDER BY id"
        return try await rows(PostgresQuery(unsafeSQL: sql, binds: query.binds)).map { UInt64(bitPattern: try $0.decode(Int64.self)) }
    }

    /// The records with these ids, lowest first.
    public func records(ids: [UInt64]) async throws -> [RecordedRequest] {
        guard !ids.isEmpty else { return [] }
        try await requireSchemaOnce()
        var query = StoreQueryBuilder(namespace: namespace)
        let list = query.bind(ids.map { Int64(bitPattern: $0) })
        let sql = "SELECT id, line, instance FROM mockapns_records WHERE \(query.conditions) AND id = ANY(\(list)) ORDER BY id"
        return try await rows(PostgresQuery(unsafeSQL: sql, binds: query.binds)).map(Self.record(from:))
    }

    public func record(_ id: RecordID) async throws -> RecordedRequest? {
        try await requireSchemaOnce()
        var query = StoreQueryBuilder(namespace: namespace)
        switch id {
        case .seq(let seq): query.add("id = ", Int64(clamping: seq))
        case .apnsID(let text): query.add("apns_id = ", text.lowercased())
        }
        let sql = "SELECT id, line, instance FROM mockapns_records WHERE \(query.conditions) ORDER BY id DESC LIMIT 1"
        return try await rows(PostgresQuery(unsafeSQL: sql, binds: query.binds)).first.map(Self.record(from:))
    }

    public func statistics() async throws -> RecorderStatistics {
        try await requireSchemaOnce()
        let query = StoreQueryBuilder(namespace: namespace)
        let sql = "SELECT status, reason, push_type, connection_churn, count(*) FROM mockapns_records WHERE "
            + "\(query.conditions) GROUP BY 1, 2, 3, 4"
        var statistics = RecorderStatistics()
        for row in try await rows(PostgresQuery(unsafeSQL: sql, binds: query.binds)) {
            let (status, reason, pushType, churn, count) = try row.decode((Int32, String?, String?, Bool, Int64).self)
            let n = Int(count)
            statistics.total += n
            if status == 200 { statistics.accepted += n } else { statistics.rejected += n }
            statistics.byStatus[Int(status), default: 0] += n
            if let reason { statistics.byReason[reason, default: 0] += n }
            statistics.byPushType[pushType ?? "none", default: 0] += n
            if churn { statistics.newConnectionPerPush += n }
        }
        return statistics
    }

    public func clear() async throws {
        let query = StoreQueryBuilder(namespace: namespace)
        try await count(PostgresQuery(unsafeSQL: "WITH gone AS (DELETE FROM mockapns_records WHERE \(query.conditions) "
                                      + "RETURNING 1) SELECT count(*) FROM gone", binds: query.binds))
        try await count(PostgresQuery(unsafeSQL: "WITH gone AS (DELETE FROM mockapns_search_blocks WHERE \(query.conditions) "
                                      + "RETURNING 1) SELECT count(*) FROM gone", binds: query.binds))
    }

    /// The highest record id retention has deleted in the namespace (0 when it never pruned).
    public func prunedThrough() async throws -> UInt64 {
        try await requireSchemaOnce()
        let query = StoreQueryBuilder(namespace: namespace)
        let sql = "SELECT coalesce(max(pruned_through), 0) FROM mockapns_prune_marks WHERE \(query.conditions)"
        return UInt64(bitPattern: try await rows(PostgresQuery(unsafeSQL: sql, binds: query.binds)).first?.decode(Int64.self) ?? 0)
    }

    public func describe(_ error: any Error) -> String {
        PostgresStoreError.describing(error, store: label).description
    }

    /// Record counts per namespace and instance, for `mockapns store status`.
    public func instanceCounts() async throws(PostgresStoreError) -> [(namespace: String, instance: String, records: Int)] {
        do {
            try await requireSchemaOnce()
            let sql = "SELECT namespace, instance, count(*) FROM mockapns_records GROUP BY 1, 2 ORDER BY 1, 2"
            return try await rows(PostgresQuery(unsafeSQL: sql)).map { row in
                let (namespace, instance, count) = try row.decode((String, String, Int64).self)
                return (namespace, instance, Int(count))
            }
        } catch {
            throw PostgresStoreError.describing(error, store: label)
        }
    }

    // MARK: - Helpers

    func run<Result: Sendable>(timeout: Duration? = nil,
                               _ body: @escaping @Sendable (PostgresConnection) async throws -> Result) async throws -> Result {
        try await session.run(timeout: timeout, body)
    }

    func rows(_ query: PostgresQuery, timeout: Duration? = nil) async throws -> [PostgresRow] {
        let logger = self.logger
        return try await session.run(timeout: timeout) { connection in try await connection.query(query, logger: logger).collect() }
    }

    @discardableResult
    func count(_ query: PostgresQuery) async throws -> Int {
        Int(try await rows(query).first?.decode(Int64.self) ?? 0)
    }

    static func record(from row: PostgresRow) throws -> RecordedRequest {
        let (id, line, instance) = try row.decode((Int64, String, String).self)
        var record = try RecordedRequest(jsonLine: Array(line.utf8))
        record.seq = UInt64(bitPattern: id)
        record.instance = instance
        return record
    }

    func requireSchemaOnce() async throws {
        guard !schemaChecked.load(ordering: .relaxed) else { return }
        try await requireSchema()
        schemaChecked.store(true, ordering: .relaxed)
    }
}
