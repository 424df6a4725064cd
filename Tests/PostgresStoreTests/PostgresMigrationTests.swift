import Foundation
import Logging
import MockAPNs
@testable import MockAPNsPostgres
import PostgresNIO
import PostgresSupport
import XCTest

/// The schema against a real PostgreSQL: migrations raced by two instances apply each step once (by advisory lock or
/// by lease), a store the previous version wrote keeps every record once partitioned, and a database a newer mockapns
/// wrote is refused with both versions named.
final class PostgresMigrationTests: PostgresTestCase {

    private func store(_ database: String, instance: String) throws -> PostgresRecordStore {
        let cluster = try XCTUnwrap(Self.cluster)
        return PostgresRecordStore(url: try PostgresStoreURL(parsing: cluster.url(database: database)), instance: instance)
    }

    func testTwoInstancesMigratingTogetherApplyEachStepOnce() async throws {
        let cluster = try XCTUnwrap(Self.cluster)
        let database = try cluster.createDatabase("race")
        let first = try store(database, instance: "a"), second = try store(database, instance: "b")
        async let one = first.open()
        async let two = second.open()
        let outcomes = try await [one, two]
        await first.close()
        await second.close()
        let latest = outcomes[0].to
        XCTAssertGreaterThanOrEqual(latest, 1)
        XCTAssertEqual(outcomes.map(\.to), [latest, latest])
        XCTAssertEqual(Set(outcomes.map(\.from)), [0, latest], "one instance migrated, the other found it done: \(outcomes)")
        XCTAssertEqual(try cluster.psql("SELECT count(*) FROM mockapns_schema", database: database), String(latest))
        XCTAssertEqual(try cluster.psql("SELECT count(*) FROM mockapns_records", database: database), "0")
    }

    func testADatabaseWrittenByANewerVersionIsRefusedNamingBothVersions() async throws {
        let cluster = try XCTUnwrap(Self.cluster)
        let database = try cluster.createDatabase("newer")
        let first = try store(database, instance: "a")
        let supported = try await first.open().to
        await first.close()
        _ = try cluster.psql("INSERT INTO mockapns_schema (version) VALUES (\(supported + 41))", database: database)

        let second = try store(database, instance: "b")
        defer { Task { await second.close() } }
        do {
            try await second.open()
            XCTFail("a newer schema was accepted")
        } catch {
            XCTAssertEqual(error, .newerSchema(found: supported + 41, supported: supported, store: second.label))
            XCTAssertTrue(error.description.contains("version \(supported + 41)"), error.description)
            XCTAssertTrue(error.description.contains("version \(supported)."), error.description)
        }
        let version = try await second.schemaVersion()
        XCTAssertEqual(version.found, supported + 41)
    }

    func testTwoInstancesMigratingTogetherUnderLeasesApplyEachStepOnce() async throws {
        let cluster = try XCTUnwrap(Self.cluster)
        let database = try cluster.createDatabase("leaserace")
        let url = try PostgresStoreURL(parsing: cluster.url(database: database))
        let first = PostgresRecordStore(url: url, instance: "a", events: .poll)
        let second = PostgresRecordStore(url: url, instance: "b", events: .poll)
        async let one = first.open()
        async let two = second.open()
        let outcomes = try await [one, two]
        await first.close()
        await second.close()
        XCTAssertEqual(Set(outcomes.map(\.from)), [0, StoreSchema.latestVersion], "one instance migrated, the other found it done")
        XCTAssertEqual(try cluster.psql("SELECT count(*) FROM mockapns_schema", database: database), String(StoreSchema.latestVersion))
        XCTAssertEqual(try cluster.psql("SELECT count(*) FROM mockapns_leases WHERE name = 'migrate'", database: database), "0",
                       "the lease is given back")
        XCTAssertEqual(try cluster.psql("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory'", database: database), "0")
    }

    func testAStoreWrittenByVersion5KeepsEveryRecordOncePartitioned() async throws {
        let cluster = try XCTUnwrap(Self.cluster)
        let database = try cluster.createDatabase("fromv5")
        var configuration = PostgresConnection.Configuration(host: "127.0.0.1", port: cluster.port, username: cluster.user,
                                                             password: cluster.password, database: database, tls: .disable)
        configuration.options.connectTimeout = .seconds(10)
        let logger = Logger(label: "test")
        let connection = try await PostgresConnection.connect(configuration: configuration, id: 1, logger: logger)
        var migrator = StoreMigrator(label: "test", logger: logger)
        migrator.target = 5
        let old = try await migrator.migrate(connection)
        try await connection.close()
        XCTAssertEqual(old.to, 5)
        // Six records as version 5 wrote them, in two namespaces, over three days (2026-11-25 to 27, UTC).
        let day: Int64 = 86_400_000, start: Int64 = 1_795_564_800_000
        for index in 0..<6 {
            let record = StoreRecords.push(token: String(format: "%064x", index), status: index == 4 ? 410 : 200,
                                           reason: index == 4 ? "Unregistered" : nil,
                                           receivedAtMillis: start + Int64(index) * day / 2, title: "Parcel \(index) shipped")
            let line = String(decoding: record.jsonLine().dropLast(), as: UTF8.self)
            _ = try cluster.psql("""
                INSERT INTO mockapns_records (namespace, instance, seq, received_ms, token, topic, push_type, status, reason, apns_id, line, search_text)
                VALUES ('\(index % 2 == 0 ? "" : "team")', 'old', \(index + 1), \(record.receivedAtMillis), '\(record.deviceToken ?? "")',
                        'com.example.app', 'alert', \(record.response.status), \(record.response.reason.map { "'\($0)'" } ?? "NULL"),
                        '\(record.response.apnsID ?? "")', $L$\(line)$L$, $L$\(SearchQuery.searchText(of: record))$L$)
                """, database: database)
        }
        let idsBefore = try cluster.psql("SELECT string_agg(id::text, ',' ORDER BY id) FROM mockapns_records", database: database)

        let store = PostgresRecordStore(url: try PostgresStoreURL(parsing: cluster.url(database: database)), instance: "new")
        let outcome = try await store.open()
        XCTAssertEqual(outcome.from, 5)
        XCTAssertEqual(outcome.to, StoreSchema.latestVersion)
        XCTAssertEqual(try cluster.psql("SELECT string_agg(id::text, ',' ORDER BY id) FROM mockapns_records", database: database),
                       idsBefore, "every record kept, under its id")
        XCTAssertEqual(try cluster.psql("SELECT count(*) FROM mockapns_records_20261125_0000", database: database), "2")
        XCTAssertEqual(try cluster.psql("SELECT count(*) FROM mockapns_records_20261127_0000", database: database), "2")
        let records = try await store.records(matching: RecordFilter(), before: nil)
        XCTAssertEqual(records.map(\.deviceToken), (0..<3).map { String(format: "%064x", $0 * 2) })
        let found = try await store.search(try SearchQuery(parsing: "title:\"parcel 2\""), before: nil, limit: 10)
        XCTAssertEqual(found.records.map(\.deviceToken), [String(format: "%064x", 2)], "records written before are found by their words")
        let gone = try await store.search(try SearchQuery(parsing: "reason:unregistered"), before: nil, limit: 10)
        XCTAssertEqual(gone.records.count, 1)
        try await store.append([StoreRecords.push(token: "ab01")])
        let newest = try await store.records(matching: RecordFilter(limit: 1), before: nil)
        XCTAssertGreaterThan(newest.first?.seq ?? 0, UInt64(idsBefore.split(separator: ",").last.flatMap { UInt64($0) } ?? .max),
                             "ids carry on from the old table's")
        await store.close()
    }
}
