import Foundation
import JSON
@testable import MockAPNsFCM
@testable import MockAPNsPostgres
import MockAPNsRecording
import PostgresSupport
import Support
import XCTest

/// The FCM front door's records in a real PostgreSQL (`serve --fcm --store`): written in batches by the front door's
/// writer, read back through the filters the front door's memory answers, apart per namespace, pruned by the same
/// retention as the pushes, never stored twice when a batch is retried; and while the store refuses them, senders
/// past the queue wait and nothing queued is lost.
final class PostgresFCMRecordTests: PostgresTestCase {
    private func openStore(instance: String = "a:1", namespace: String = "", database: String? = nil) async throws
        -> (PostgresRecordStore, String) {
        try await MigratedStore.open(on: Self.cluster, prefix: "fcm", instance: instance, namespace: namespace, database: database)
    }

    /// An FCM record of `project` to `token`, answered `status` (accepted: named `…/messages/0:ID`).
    private func record(_ id: Int, project: String = "p1", token: String = "tok", status: Int = 200,
                        receivedAtMillis: Int64 = 1_700_000_000_000) -> FCMRecord {
        FCMRecord(sequence: 0, name: status == 200 ? "projects/\(project)/messages/0:\(id)%ab" : nil, project: project,
                  receivedAtMillis: receivedAtMillis + Int64(id), transport: "h2", remote: "127.0.0.1:5000", validateOnly: false,
                  target: ("token", token), message: .object([.init("token", .string(token))]), status: status,
                  answer: .object([]), deliveries: [])
    }

    /// Runs a writer on `store` until `body` is done, then stops it and waits for it.
    private func withWriter(_ store: PostgresRecordStore, queueLimit: Int = 10_000, drainLimit: Duration = .seconds(5),
                            _ body: (FCMRecordWriter) async throws -> Void) async throws -> FCMRecordWriter {
        let writer = FCMRecordWriter(store: store, queueLimit: queueLimit, drainLimit: drainLimit)
        let running = Task { await writer.run() }
        do { try await body(writer) } catch {
            writer.stop()
            await running.value
            throw error
        }
        writer.stop()
        await running.value
        return writer
    }

    func testRecordsAreWrittenInBatchesAndReadThroughTheFrontDoorsFilters() async throws {
        let (store, database) = try await openStore()
        defer { Task { await store.close() } }
        // More than one batch (1 000), every third refused, two projects, two tokens.
        let writer = try await withWriter(store) { writer in
            for id in 1...1_203 {
                await writer.enqueue(record(id, project: id % 2 == 0 ? "p2" : "p1", token: id % 5 == 0 ? "five" : "tok",
                                            status: id % 3 == 0 ? 400 : 200))
            }
            await writer.flush()
        }
        XCTAssertEqual(writer.lost, 0)
        let cluster = try XCTUnwrap(Self.cluster)
        XCTAssertEqual(try cluster.psql("SELECT count(*) || '/' || min(seq) || '/' || max(seq) || '/' || count(DISTINCT instance) FROM mockapns_fcm_records",
                                        database: database), "1203/1/1203/1", "numbered 1, 2, 3… by the instance")
        XCTAssertEqual(try cluster.psql("SELECT count(*) FROM mockapns_fcm_records WHERE name IS NULL AND message_id IS NULL", database: database),
                       "401", "a refused request has no name")

        let reader = FCMStoredRecords(store)
        let all = try await reader.records(matching: FCMExpectation.Filter())
        XCTAssertEqual(all.count, 1_203, "past one page of the store")
        XCTAssertEqual(all.compactMap { $0["seq"]?.integerValue }, all.compactMap { $0["seq"]?.integerValue }.sorted(), "oldest first")
        XCTAssertEqual(Set(all.compactMap { $0["instance"]?.stringValue }), ["a:1"])
        let five = try await reader.records(matching: FCMExpectation.Filter(project: "p2", token: "five", status: 200))
        // Even ids, multiples of five, not of three: 10, 20, 40, 50, 70, 80, 100… below 1 203.
        let expected = (1...1_203).filter { $0 % 2 == 0 && $0 % 5 == 0 && $0 % 3 != 0 }
        XCTAssertEqual(five.compactMap { $0["received_at_ms"]?.integerValue }, expected.map { 1_700_000_000_000 + Int64($0) },
                       "the store narrows by project and status, the filter checks the token")
        let newest = try await reader.records(matching: FCMExpectation.Filter(project: "p1"), limit: 2)
        XCTAssertEqual(newest.compactMap { $0["received_at_ms"]?.integerValue }, [1_700_000_001_201, 1_700_000_001_203])

        let named = try await reader.records(matching: FCMExpectation.Filter(name: "projects/p1/messages/0:7%ab"))
        XCTAssertEqual(named.count, 1)
        let byID = try await reader.record(["0:7%ab"])
        XCTAssertEqual(byID?["name"]?.stringValue, "projects/p1/messages/0:7%ab", "by the message id")
        let seq = try XCTUnwrap(named.first?["seq"]?.integerValue)
        let bySeq = try await reader.record([String(seq)])
        XCTAssertEqual(bySeq?["name"]?.stringValue, "projects/p1/messages/0:7%ab", "by the store-wide id")
        let missing = try await reader.record(["0:999999"])
        XCTAssertNil(missing)

        let clearedCount = try await store.clearFCM()
        XCTAssertEqual(clearedCount, 1_203)
        let cleared = try await reader.records(matching: FCMExpectation.Filter())
        XCTAssertTrue(cleared.isEmpty)
    }

    func testNamespacesAreApartAndRetentionPrunesFCMRecordsByCountAndAge() async throws {
        let (first, database) = try await openStore(instance: "A", namespace: "one")
        let (second, _) = try await openStore(instance: "B", namespace: "two", database: database)
        defer { Task { await first.close(); await second.close() } }
        try await first.appendFCM((1...6).map { FCMRecordWriter.stored(numbered(record($0), $0)) })
        try await second.appendFCM([FCMRecordWriter.stored(numbered(record(1), 1))])
        let mine = try await FCMStoredRecords(first).records(matching: FCMExpectation.Filter())
        let theirs = try await FCMStoredRecords(second).records(matching: FCMExpectation.Filter())
        XCTAssertEqual(mine.count, 6)
        XCTAssertEqual(theirs.compactMap { $0["instance"]?.stringValue }, ["B"])

        // Keep the newest 4, then none received before the fifth.
        try await first.prune(RecordRetention(keepNewest: 4))
        var left = try await FCMStoredRecords(first).records(matching: FCMExpectation.Filter())
        XCTAssertEqual(left.compactMap { $0["received_at_ms"]?.integerValue }, (3...6).map { 1_700_000_000_000 + Int64($0) })
        try await first.prune(RecordRetention(receivedBeforeMillis: 1_700_000_000_005))
        left = try await FCMStoredRecords(first).records(matching: FCMExpectation.Filter())
        XCTAssertEqual(left.compactMap { $0["received_at_ms"]?.integerValue }, [1_700_000_000_005, 1_700_000_000_006])
        let untouched = try await FCMStoredRecords(second).records(matching: FCMExpectation.Filter())
        XCTAssertEqual(untouched.count, 1, "another namespace's records are not pruned")
    }

    func testABatchRetriedAfterAnUncertainWriteIsNotStoredTwice() async throws {
        let (store, database) = try await openStore()
        defer { Task { await store.close() } }
        let batch = (1...3).map { FCMRecordWriter.stored(numbered(record($0), UInt64($0))) }
        try await store.appendFCM(batch)
        // As after a write whose commit went through with the answer lost: the writer hands the same batch over again,
        // with a record queued since.
        store.uncertainFCMBatch.withLock { $0 = (3, batch[2].receivedAtMillis) }
        try await store.appendFCM(batch + [FCMRecordWriter.stored(numbered(record(4), 4))])
        let cluster = try XCTUnwrap(Self.cluster)
        XCTAssertEqual(try cluster.psql("SELECT string_agg(seq::text, ',' ORDER BY id) FROM mockapns_fcm_records", database: database), "1,2,3,4")
        // A batch of an earlier run under the same name (numbered from 1 again, received later) is written.
        store.uncertainFCMBatch.withLock { $0 = (1, 1) }
        try await store.appendFCM([FCMRecordWriter.stored(numbered(record(10), 1))])
        XCTAssertEqual(try cluster.psql("SELECT count(*) FROM mockapns_fcm_records", database: database), "5")
    }

    func testWhileTheStoreRefusesRecordsSendersPastTheQueueWaitAndNothingQueuedIsLost() async throws {
        let (store, database) = try await openStore()
        defer { Task { await store.close() } }
        let cluster = try XCTUnwrap(Self.cluster)
        _ = try cluster.psql("ALTER TABLE mockapns_fcm_records RENAME TO fcm_records_away", database: database)
        let sixthQueued = Locked(false)
        let writer = try await withWriter(store, queueLimit: 5) { writer in
            for id in 1...5 { await writer.enqueue(record(id)) }
            let six = record(6)
            let sixth = Task {
                await writer.enqueue(six)
                sixthQueued.withLock { $0 = true }
            }
            // The writer keeps failing on the missing table and holds the five: the sixth sender waits.
            await writer.flush()
            try await Task.sleep(for: .milliseconds(500))
            XCTAssertFalse(sixthQueued.withLock { $0 }, "a sender past a full queue waits while the store refuses records")
            _ = try cluster.psql("ALTER TABLE fcm_records_away RENAME TO mockapns_fcm_records", database: database)
            await sixth.value
            await writer.flush()
        }
        XCTAssertTrue(sixthQueued.withLock { $0 })
        XCTAssertEqual(writer.lost, 0)
        XCTAssertEqual(try cluster.psql("SELECT string_agg(seq::text, ',' ORDER BY id) FROM mockapns_fcm_records", database: database),
                       "1,2,3,4,5,6", "every record once, in order")
    }

    func testRecordsTheStoreStillRefusesWhenTheWriterStopsAreCountedLost() async throws {
        let (store, database) = try await openStore()
        defer { Task { await store.close() } }
        let cluster = try XCTUnwrap(Self.cluster)
        _ = try cluster.psql("ALTER TABLE mockapns_fcm_records RENAME TO fcm_records_away", database: database)
        let writer = try await withWriter(store, drainLimit: .milliseconds(300)) { writer in
            for id in 1...3 { await writer.enqueue(record(id)) }
        }
        XCTAssertEqual(writer.lost, 3)
        await writer.enqueue(record(4))
        XCTAssertEqual(writer.lost, 4, "a record after the writer stopped is counted, not queued for ever")
    }

    /// `record` numbered `seq`, as the writer numbers it.
    private func numbered(_ record: FCMRecord, _ seq: some BinaryInteger) -> FCMRecord {
        var numbered = record
        numbered.sequence = UInt64(seq)
        return numbered
    }
}
