import APNsModel
import Foundation
import PeerSupport
import PostgresSupport
import XCTest

/// What survives a crash and a database restart with `serve --store`, against a real PostgreSQL: an instance killed
/// with SIGKILL under `--record-sync` lost nothing it answered, and a database restarted under a running instance
/// costs 500s while it is away and no record once it is back.
final class StoreDurabilityTests: PostgresTestCase {
    private var directory = ""

    override func setUp() async throws {
        directory = try makeTestDirectory("store-durability")
        try Data(#"{"aps":{"alert":"push {{n}}"}}"#.utf8).write(to: URL(fileURLWithPath: directory + "/push.json"))
    }

    /// `--record-sync` answers only after the record's batch committed, so killing the instance mid-run (no flush,
    /// no close) leaves every push the sender saw accepted in the store; each push is numbered in its body, so a
    /// record is matched to the push it came from.
    func testAnInstanceKilledUnderRecordSyncLostNothingItAnswered() async throws {
        let cluster = try XCTUnwrap(Self.cluster)
        let database = try cluster.createDatabase("killed")
        let url = cluster.url(database: database)
        let serve = try await ServedMock.start(["--port", "0", "--quiet", "--no-control", "--record-sync"],
                                               readyFile: directory + "/A.json", store: .init(url: url, instance: "A"))
        let apns = serve.apnsURL
        defer { serve.kill() }
        let send = try InspectFollowProcess(["send", directory + "/push.json", "--token", String(repeating: "ab", count: 32),
                                             "--topic", "com.example.app", "--url", apns, "--count", "100000",
                                             "--concurrency", "20", "--payload-template", "--give-up-after", "2",
                                             "--timeout", "5", "--json"])
        defer { send.stop() }
        let started = try await Poll.until {
            Int(try cluster.psql("SELECT count(*) FROM mockapns_records", database: database)) ?? 0 >= 300
        }
        XCTAssertTrue(started, "the store never reached 300 records")
        serve.kill()
        let result = try await send.waitForExit(timeout: .seconds(120))
        let summary = try XCTUnwrap(result, "send did not give up on the killed server").json()
        let accepted = try XCTUnwrap(summary["accepted"]?.integerValue)
        XCTAssertGreaterThanOrEqual(accepted, 300 - 20, "\(summary)")
        XCTAssertLessThan(accepted, 100_000, "the kill cut the run short: \(summary)")

        let stored = Int(try cluster.psql("SELECT count(*) FROM mockapns_records WHERE status = 200", database: database)) ?? -1
        let distinct = Int(try cluster.psql("SELECT count(DISTINCT substring(line from 'push ([0-9]+)')) FROM mockapns_records WHERE status = 200",
                                            database: database)) ?? -1
        // Every accepted push is stored; a push whose record committed but whose answer the kill cut off may be
        // stored without the sender having counted it, at most one per push in flight.
        XCTAssertGreaterThanOrEqual(stored, Int(accepted), "an answered push is missing from the store: \(summary)")
        XCTAssertLessThanOrEqual(stored, Int(accepted) + 20, "more records than pushes in flight could explain")
        XCTAssertEqual(distinct, stored, "each push is stored once")
    }

    /// The database restarted under a running instance: while it is away the mock answers 500 (it cannot record)
    /// and holds what it answered; once it is back the mock reconnects on its own and every request it answered is
    /// in the store, and pushes are accepted again.
    func testADatabaseRestartMidRunCostsFiveHundredsAndNoRecord() async throws {
        let cluster = try XCTUnwrap(Self.cluster)
        let database = try cluster.createDatabase("restarted")
        let url = cluster.url(database: database)
        let serve = try await ServedMock.start(["--port", "0", "--quiet", "--no-control"],
                                               readyFile: directory + "/A.json", store: .init(url: url, instance: "A"))
        let apns = serve.apnsURL
        defer { serve.stop() }
        let payload = directory + "/push.json"
        var attempts = 0
        func sendOne() async throws -> JSONValue {
            attempts += 1
            let sent = try await InspectCLI.run(["send", payload, "--token", String(format: "%064x", attempts),
                                                 "--topic", "com.example.app", "--url", apns, "--timeout", "5", "--json"])
            return try sent.json()
        }
        let before = try await sendOne()
        XCTAssertEqual(before["accepted"]?.integerValue, 1, "\(before)")

        try cluster.pause()
        var refused = false
        for _ in 0..<200 where !refused {
            refused = try await sendOne()["rejected"]?["500 InternalServerError"]?.integerValue ?? 0 > 0
        }
        XCTAssertTrue(refused, "no push was answered 500 while the database was down")
        try cluster.resume()

        var acceptedAgain = false
        for _ in 0..<300 where !acceptedAgain {
            acceptedAgain = try await sendOne()["accepted"]?.integerValue == 1
            if !acceptedAgain { try await Task.sleep(for: .milliseconds(100)) }
        }
        XCTAssertTrue(acceptedAgain, "pushes are not accepted again after the database came back")

        serve.stop()
        let exit = try await serve.waitForExit(timeout: .seconds(60))
        XCTAssertEqual(exit?.status, 0, "nothing was lost, so the exit status is 0: \(exit?.stderr ?? "")")
        let answered = exit?.stderr.split(separator: "\n").last { $0.contains("stopped after") }
        let stored = try cluster.psql("SELECT count(*) FROM mockapns_records", database: database)
        XCTAssertEqual(answered.map(String.init), "mockapns: stopped after \(stored) request(s)",
                       "every request the mock answered is in the store: \(exit?.stderr ?? "")")
        let statuses = try cluster.psql("SELECT string_agg(DISTINCT status::text, ',' ORDER BY status::text) FROM mockapns_records",
                                        database: database)
        XCTAssertEqual(statuses, "200,500")
    }
}
