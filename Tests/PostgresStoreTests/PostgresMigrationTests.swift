import Foundation
import MockAPNsPostgres
import PostgresSupport
import XCTest

/// The schema against a real PostgreSQL: migrations raced by two instances apply each step once, and a database a
/// newer mockapns wrote is refused with both versions named.
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
}
