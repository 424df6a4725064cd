import Foundation
import TestSupport
@testable import MockAPNs
@testable import MockAPNsRecording
import Logging
@testable import MockAPNsPostgres
import PostgresNIO
import PostgresSupport
import Synchronization
import XCTest

/// The record store against a real PostgreSQL: records handed to a recorder reach the table in batches and are found
/// again by filter, id and apns-id; namespaces keep mocks apart; retention prunes the oldest; and a store that
/// refuses records makes the mock refuse success until the held records are written, none lost.
final class PostgresRecordStoreTests: PostgresTestCase {
    /// A migrated store in a database of its own (or `database`, shared).
    private func openStore(instance: String = "a:1", namespace: String = "", database: String? = nil,
                           events: StoreEvents = .notify, synchronousCommit: Bool = true) async throws
        -> (PostgresRecordStore, String) {
        try await MigratedStore.open(on: Self.cluster, prefix: "records", instance: instance, namespace: namespace,
                                     database: database, events: events, synchronousCommit: synchronousCommit)
    }

    func testRecordsReachTheStoreAndAreFoundByFilterIDAndAPNsID() async throws {
        let (store, database) = try await openStore()
        let recorder = try Recorder(memoryLimit: 10, store: store)
        let apnsID = "6F1D9B2C-0000-4000-8000-00000000AAAA"
        recorder.append(StoreRecords.push(token: "aa01", topic: "com.example.app"))
        recorder.append(StoreRecords.push(token: "AA02", topic: "com.example.other", status: 400, reason: "BadDeviceToken"))
        recorder.append(StoreRecords.push(token: "aa03", topic: "com.example.app", apnsID: apnsID))
        recorder.flush()
        recorder.shutdown()
        let cluster = try XCTUnwrap(Self.cluster)
        XCTAssertEqual(try cluster.psql("SELECT string_agg(instance || '/' || seq || '/' || token, ',' ORDER BY id) FROM mockapns_records",
                                        database: database), "a:1/1/aa01,a:1/2/aa02,a:1/3/aa03")

        let all = try await store.records(matching: RecordFilter(), before: nil)
        XCTAssertEqual(all.map(\.deviceToken), ["aa01", "AA02", "aa03"], "oldest first, the record's own token")
        let app = try await store.records(matching: RecordFilter(topic: "com.example.app"), before: nil)
        XCTAssertEqual(app.map(\.deviceToken), ["aa01", "aa03"])
        let byToken = try await store.records(matching: RecordFilter(token: "aa02"), before: nil)
        XCTAssertEqual(byToken.map(\.response.reason), ["BadDeviceToken"], "tokens match case-insensitively")
        let rejected = try await store.records(matching: RecordFilter(status: 400), before: nil)
        XCTAssertEqual(rejected.count, 1)
        let newest = try await store.records(matching: RecordFilter(limit: 2), before: nil)
        XCTAssertEqual(newest.map(\.deviceToken), ["AA02", "aa03"])
        let olderPage = try await store.records(matching: RecordFilter(limit: 2), before: newest[0].seq)
        XCTAssertEqual(olderPage.map(\.deviceToken), ["aa01"])

        let found = try await store.record(.apnsID(apnsID.lowercased()))
        XCTAssertEqual(found?.deviceToken, "aa03")
        let bySeq = try await store.record(.seq(all[0].seq))
        XCTAssertEqual(bySeq?.deviceToken, "aa01")
        let missing = try await store.record(.seq(all[2].seq + 100))
        XCTAssertNil(missing)

        let statistics = try await store.statistics()
        XCTAssertEqual(statistics.total, 3)
        XCTAssertEqual(statistics.accepted, 2)
        XCTAssertEqual(statistics.byStatus, [200: 2, 400: 1])
        XCTAssertEqual(statistics.byReason, ["BadDeviceToken": 1])
        XCTAssertEqual(statistics.byPushType, ["alert": 3])
        await store.close()
    }

    /// Batches go in through COPY's text format: values holding its special bytes (backslashes in the JSON line's own
    /// escapes, a tab or newline in a header value, a NULL-looking `\N`) come back exactly, and NULL stays NULL.
    func testValuesWithCopyFormatSpecialBytesRoundTrip() async throws {
        let (store, database) = try await openStore(instance: "tab\there")
        let title = "quote \" backslash \\ tab \t newline \n carriage \r literal \\N and ünïcødé 🚀"
        let topic = #"com.example.\N\tweird"#
        var odd = StoreRecords.push(token: "aa01", topic: topic, title: title)
        odd.response.reason = "Reason\twith\\escapes"
        var bare = StoreRecords.push(token: "aa02", status: 500, reason: nil)
        bare.deviceToken = nil
        try await store.append([odd, bare])
        let back = try await store.records(matching: RecordFilter(), before: nil)
        XCTAssertEqual(back.count, 2)
        XCTAssertEqual(back.first?.payload?.jsonText(), odd.payload?.jsonText(), "the payload, escapes and all")
        XCTAssertEqual(back.first?.header("apns-topic"), topic)
        XCTAssertEqual(back.first?.response.reason, "Reason\twith\\escapes")
        let cluster = try XCTUnwrap(Self.cluster)
        XCTAssertEqual(try cluster.psql("SELECT topic || '|' || reason || '|' || instance FROM mockapns_records ORDER BY id LIMIT 1",
                                        database: database), topic + "|Reason\twith\\escapes|tab\there")
        XCTAssertEqual(try cluster.psql("SELECT count(*) FROM mockapns_records WHERE token IS NULL AND reason IS NULL",
                                        database: database), "1", #"nil columns are NULL, not the text \N"#)
        await store.close()
    }

    func testNamespacesSharingADatabaseDoNotSeeEachOther() async throws {
        let (first, database) = try await openStore(instance: "a:1", namespace: "team-a")
        let (second, _) = try await openStore(instance: "b:1", namespace: "team-b", database: database)
        try await first.append([StoreRecords.push(token: "aa01")])
        try await second.append([StoreRecords.push(token: "bb01"), StoreRecords.push(token: "bb02")])
        let seenByFirst = try await first.records(matching: RecordFilter(), before: nil)
        let seenBySecond = try await second.records(matching: RecordFilter(), before: nil)
        XCTAssertEqual(seenByFirst.map(\.deviceToken), ["aa01"])
        XCTAssertEqual(seenBySecond.map(\.deviceToken), ["bb01", "bb02"])
        try await second.clear()
        let afterClear = try await first.statistics()
        XCTAssertEqual(afterClear.total, 1, "clearing one namespace leaves the other's records")
        let clearedTotal = try await second.statistics().total
        XCTAssertEqual(clearedTotal, 0)
        await first.close()
        await second.close()
    }

    func testPruneForgetsTheOldestPastTheCountAndTheAge() async throws {
        let (store, _) = try await openStore()
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        try await store.append((0..<5).map { StoreRecords.push(token: "aa0\($0)", receivedAtMillis: now - 10_000 + Int64($0) * 1000) })
        let pruned = try await store.prune(RecordRetention(keepNewest: 3))
        XCTAssertEqual(pruned, 2)
        var left = try await store.records(matching: RecordFilter(), before: nil)
        XCTAssertEqual(left.map(\.deviceToken), ["aa02", "aa03", "aa04"])
        let aged = try await store.prune(RecordRetention(receivedBeforeMillis: now - 6_500))
        XCTAssertEqual(aged, 2, "aa02 and aa03 were received 8 s and 7 s ago")
        left = try await store.records(matching: RecordFilter(), before: nil)
        XCTAssertEqual(left.map(\.deviceToken), ["aa04"])
        await store.close()
    }

    func testBackgroundPruningSkipsItsTurnWhileAnotherInstanceHoldsThePruneLock() async throws {
        let (store, database) = try await openStore()
        let cluster = try XCTUnwrap(Self.cluster)
        try await store.append((0..<4).map { StoreRecords.push(token: "aa0\($0)") })
        // Another instance in the middle of its pruning round: a transaction holding the lock.
        var configuration = PostgresConnection.Configuration(host: "127.0.0.1", port: cluster.port, username: cluster.user,
                                                             password: cluster.password, database: database, tls: .disable)
        configuration.options.connectTimeout = .seconds(10)
        let other = try await PostgresConnection.connect(configuration: configuration, id: 99, logger: Logger(label: "test"))
        _ = try await other.query("BEGIN", logger: Logger(label: "test")).collect()
        _ = try await other.query("SELECT pg_advisory_xact_lock(\(StoreSchema.pruneLockKey))", logger: Logger(label: "test")).collect()
        let skipped = try await store.pruneExclusively(RecordRetention(keepNewest: 1))
        XCTAssertNil(skipped, "pruned while another instance held the lock")
        _ = try await other.query("COMMIT", logger: Logger(label: "test")).collect()
        try await other.close()
        let pruned = try await store.pruneExclusively(RecordRetention(keepNewest: 1))
        XCTAssertEqual(pruned, 3)
        let left = try await store.records(matching: RecordFilter(), before: nil)
        XCTAssertEqual(left.map(\.deviceToken), ["aa03"])
        await store.close()
    }

    func testBackgroundPruningUnderLeasesSkipsItsTurnWhileAnotherInstanceHoldsThePruneLease() async throws {
        let (store, database) = try await openStore(events: .poll)
        let cluster = try XCTUnwrap(Self.cluster)
        try await store.append((0..<4).map { StoreRecords.push(token: "aa0\($0)") })
        _ = try cluster.psql("INSERT INTO mockapns_leases VALUES ('prune', 'another-instance', now() + interval '1 minute')", database: database)
        let skipped = try await store.pruneExclusively(RecordRetention(keepNewest: 1))
        XCTAssertNil(skipped, "pruned while another instance held the lease")
        XCTAssertEqual(try cluster.psql("SELECT count(*) FROM mockapns_records", database: database), "4")
        // The other instance died without giving it back: once the lease expires, the next round takes it.
        _ = try cluster.psql("UPDATE mockapns_leases SET expires_at = now() - interval '1 second' WHERE name = 'prune'", database: database)
        let pruned = try await store.pruneExclusively(RecordRetention(keepNewest: 1))
        XCTAssertEqual(pruned, 3)
        XCTAssertEqual(try cluster.psql("SELECT count(*) FROM mockapns_leases WHERE name = 'prune'", database: database), "0",
                       "the lease is given back after the round")
        XCTAssertEqual(try cluster.psql("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory'", database: database), "0")
        await store.close()
    }

    func testRecordsGoIntoOnePartitionPerDayCreatedAheadAndRetentionByAgeDropsWholeOnes() async throws {
        let (store, database) = try await openStore(namespace: "team", synchronousCommit: false)
        let cluster = try XCTUnwrap(Self.cluster)
        let day: Int64 = 86_400_000, start: Int64 = 1_795_564_800_000   // 2026-11-25T00:00Z
        // Three days of four records each, in batches that each stay within a day.
        for offset in 0..<3 {
            try await store.append((0..<4).map { StoreRecords.push(token: "d\(offset)0\($0)", receivedAtMillis: start + Int64(offset) * day + Int64($0) * 3_600_000,
                                                                 title: "Day \(offset) parcel \($0)") })
        }
        let partitions = { try cluster.psql("SELECT string_agg(c.relname, ',' ORDER BY c.relname) FROM pg_inherits i JOIN pg_class c "
                                            + "ON c.oid = i.inhrelid WHERE i.inhparent = 'mockapns_records'::regclass", database: database) }
        let before = try partitions()
        for name in ["mockapns_records_20261125_0000", "mockapns_records_20261126_0000", "mockapns_records_20261127_0000",
                     "mockapns_records_20261128_0000"] {
            XCTAssertTrue(before.contains(name), "\(name) missing from \(before) (the 28th is made ahead of need)")
        }
        XCTAssertEqual(try cluster.psql("SELECT count(*) FROM mockapns_records_20261126_0000", database: database), "4")

        // Older than the third day's 02:00: the first two days go whole, two rows of the third one by one.
        let pruned = try await store.prune(RecordRetention(receivedBeforeMillis: start + 2 * day + 2 * 3_600_000))
        XCTAssertEqual(pruned, 10)
        let after = try partitions()
        XCTAssertFalse(after.contains("mockapns_records_20261125_0000"), after)
        XCTAssertFalse(after.contains("mockapns_records_20261126_0000"), after)
        XCTAssertTrue(after.contains("mockapns_records_20261127_0000"), after)
        let left = try await store.records(matching: RecordFilter(), before: nil)
        XCTAssertEqual(left.map(\.deviceToken), ["d202", "d203"])
        let highest = try cluster.psql("SELECT max(id) FROM mockapns_records", database: database)
        let mark = try await store.prunedThrough()
        XCTAssertEqual(mark, UInt64(highest).map { $0 - 2 }, "the prune mark names the highest id gone")
        XCTAssertEqual(try cluster.psql("SELECT count(*) FROM mockapns_search_blocks", database: database), "1",
                       "the blocks of the records gone go with them")
        let search = try await store.search(try SearchQuery(parsing: "parcel"), before: nil, limit: 10)
        XCTAssertEqual(search.records.map(\.deviceToken), ["d203", "d202"])

        // A record for a day whose partition retention dropped: this store learns it is gone and makes it again.
        try await store.append([StoreRecords.push(token: "late", receivedAtMillis: start + 3_600_000)])
        XCTAssertEqual(try cluster.psql("SELECT count(*) FROM mockapns_records_20261125_0000", database: database), "1")
        await store.close()
    }

    func testAPartitionHoldingAnotherNamespaceIsPrunedRowByRow() async throws {
        let (first, database) = try await openStore(namespace: "a")
        let (second, _) = try await openStore(instance: "b:1", namespace: "b", database: database)
        let cluster = try XCTUnwrap(Self.cluster)
        let start: Int64 = 1_795_564_800_000
        try await first.append((0..<3).map { StoreRecords.push(token: "aa0\($0)", receivedAtMillis: start + Int64($0)) })
        try await second.append([StoreRecords.push(token: "bb01", receivedAtMillis: start)])
        let pruned = try await first.prune(RecordRetention(receivedBeforeMillis: start + 86_400_000))
        XCTAssertEqual(pruned, 3)
        XCTAssertEqual(try cluster.psql("SELECT count(*) FROM mockapns_records_20261125_0000", database: database), "1",
                       "namespace b's record stays, and so does its partition")
        await first.close()
        await second.close()
    }

    func testAStoreRefusingRecordsMakesTheMockRefuseSuccessUntilItTakesTheHeldRecords() async throws {
        let (store, database) = try await openStore()
        let cluster = try XCTUnwrap(Self.cluster)
        let recorder = try Recorder(memoryLimit: 10, store: store)
        defer { recorder.shutdown() }
        recorder.append(StoreRecords.push(token: "aa01"))
        recorder.flush()
        XCTAssertFalse(recorder.cannotRecord)

        // The table goes away under the running writer (as a database restore or a dropped grant would do).
        _ = try cluster.psql("ALTER TABLE mockapns_records RENAME TO mockapns_records_away", database: database)
        recorder.append(StoreRecords.push(token: "aa02"))
        XCTAssertTrue(Poll.blockingUntil { recorder.cannotRecord }, "a refused batch marks the store unwritable")
        XCTAssertTrue(recorder.storeIsUnwritable)
        recorder.append(StoreRecords.push(token: "aa03"))
        XCTAssertTrue(Poll.blockingUntil { recorder.storeStatus?.waiting == 2 }, "both records are held: \(recorder.storeStatus?.waiting ?? -1)")

        _ = try cluster.psql("ALTER TABLE mockapns_records_away RENAME TO mockapns_records", database: database)
        XCTAssertTrue(Poll.blockingUntil { !recorder.cannotRecord }, "writable again once the table is back")
        recorder.flush()
        let stored = try await store.records(matching: RecordFilter(), before: nil)
        XCTAssertEqual(stored.map(\.deviceToken), ["aa01", "aa02", "aa03"], "nothing held was lost")
        XCTAssertEqual(recorder.storeStatus?.lost, 0)
        XCTAssertEqual(recorder.storeStatus?.failures, 1)
        await store.close()
    }

    func testRecordSyncAnswersOnlyAfterTheBatchCommitted() async throws {
        let (store, database) = try await openStore()
        let cluster = try XCTUnwrap(Self.cluster)
        let recorder = try Recorder(memoryLimit: 10, store: store, synchronousStore: true)
        defer { recorder.shutdown() }
        XCTAssertTrue(recorder.writesBeforeAnswering)
        _ = try cluster.psql("ALTER TABLE mockapns_records RENAME TO mockapns_records_away", database: database)
        let answered = Answers()
        recorder.appendNumbered(StoreRecords.push(token: "aa01")) { written in answered.add(written) }
        XCTAssertTrue(Poll.blockingUntil { recorder.storeIsUnwritable })
        XCTAssertEqual(answered.all, [], "no answer while the record is not committed")
        _ = try cluster.psql("ALTER TABLE mockapns_records_away RENAME TO mockapns_records", database: database)
        XCTAssertTrue(Poll.blockingUntil { answered.all == [true] }, "answered once committed")
        XCTAssertEqual(try cluster.psql("SELECT count(*) FROM mockapns_records", database: database), "1")
        await store.close()
    }

    func testABatchRetriedAfterItsCommitIsNotStoredTwice() async throws {
        let (store, database) = try await openStore(instance: "a:1")
        let cluster = try XCTUnwrap(Self.cluster)
        let batch = (1...5).map { seq -> RecordedRequest in
            var record = StoreRecords.push(token: String(format: "%064x", seq), receivedAtMillis: 1_795_442_400_000 + Int64(seq))
            record.seq = UInt64(seq)
            return record
        }
        try await store.append(Array(batch.prefix(3)))
        // The COPY of records 1–3 committed but its answer was lost: the writer retries them, with 4 and 5 now held too.
        store.uncertainBatch.withLock { $0 = (3, batch[2].receivedAtMillis) }
        try await store.append(batch)
        XCTAssertEqual(try cluster.psql("SELECT string_agg(seq::text, ',' ORDER BY id) FROM mockapns_records", database: database),
                       "1,2,3,4,5")
        // A failure before the commit: the retried records are all written.
        let later = (6...7).map { seq -> RecordedRequest in
            var record = StoreRecords.push(token: String(format: "%064x", seq), receivedAtMillis: 1_795_442_400_000 + Int64(seq))
            record.seq = UInt64(seq)
            return record
        }
        store.uncertainBatch.withLock { $0 = (7, later[1].receivedAtMillis) }
        try await store.append(later)
        XCTAssertEqual(try cluster.psql("SELECT count(*) FROM mockapns_records", database: database), "7")
        await store.close()
    }
}

/// What `--record-sync` completions reported, in order.
private final class Answers: Sendable {
    private let values = Mutex<[Bool]>([])
    func add(_ value: Bool) { values.withLock { $0.append(value) } }
    var all: [Bool] { values.withLock { $0 } }

}
