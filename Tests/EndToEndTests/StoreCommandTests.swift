import APNsModel
import Foundation
import PeerSupport
import PostgresSupport
import XCTest

/// `mockapns serve --store` and the readers against a real PostgreSQL (a throwaway cluster): two instances share one
/// store and a reader sees both; a malformed URL exits 2, a wrong password or an unreachable host exits 1, each
/// with one line on stderr that never shows the password.
final class StoreCommandTests: PostgresTestCase {
    private var directory = ""

    override func setUp() async throws {
        directory = try makeTestDirectory("store-cli")
    }

    func testTwoInstancesShareOneStoreAndReadersSeeBothInstancesPushes() async throws {
        let cluster = try XCTUnwrap(Self.cluster)
        let url = cluster.url(database: try cluster.createDatabase("shared"))
        let first = try await ServedMock.start(["--port", "0", "--quiet", "--no-control"],
                                               readyFile: directory + "/A.json", store: .init(url: url, instance: "A"))
        let firstURL = first.apnsURL
        defer { first.stop() }
        let second = try await ServedMock.start(["--port", "0", "--quiet", "--no-control", "--record-sync"],
                                                readyFile: directory + "/B.json", store: .init(url: url, instance: "B"))
        let secondURL = second.apnsURL
        defer { second.stop() }

        let payload = directory + "/push.json"
        try Data(#"{"aps":{"alert":{"title":"Shipped","body":"Order 42"}}}"#.utf8).write(to: URL(fileURLWithPath: payload))
        let tokenA = String(repeating: "a1", count: 32), tokenB = String(repeating: "b2", count: 32)
        for (token, target) in [(tokenA, firstURL), (tokenB, secondURL)] {
            let sent = try await InspectCLI.run(["send", payload, "--token", token, "--topic", "com.example.app", "--url", target])
            XCTAssertEqual(sent.status, 0, sent.stdout + sent.stderr)
        }

        // A's record is written within its 100 ms batch; B's (--record-sync) was committed before it answered.
        let expectA = try await InspectCLI.run(["expect", "--store", url, "--token", tokenA, "--where", "aps.alert.title=Shipped",
                                                "--count", "1", "--timeout", "30"])
        XCTAssertEqual(expectA.status, 0, expectA.stdout + expectA.stderr)
        let expectB = try await InspectCLI.run(["expect", "--store", url, "--token", tokenB, "--count", "1"])
        XCTAssertEqual(expectB.status, 0, expectB.stdout + expectB.stderr)
        let missing = try await InspectCLI.run(["expect", "--store", url, "--token", String(repeating: "cc", count: 32)])
        XCTAssertEqual(missing.status, 1, "an unmet expectation on the store fails: \(missing.stdout)")

        let list = try await InspectCLI.run(["list", "--store", url, "--json"])
        XCTAssertEqual(list.status, 0, list.stderr)
        let notifications = try XCTUnwrap(try list.json()["notifications"]?.arrayElements)
        XCTAssertEqual(Set(notifications.compactMap { $0["device_token"]?.stringValue }), [tokenA, tokenB])
        let ids = notifications.compactMap { $0["seq"]?.integerValue }
        XCTAssertEqual(Set(ids).count, 2, "store-wide ids are distinct across instances: \(ids)")

        let show = try await InspectCLI.run(["show", String(try XCTUnwrap(ids.first)), "--store", url, "--json"])
        XCTAssertEqual(show.status, 0, show.stderr)
        let stats = try await InspectCLI.run(["stats", "--store", url, "--json"])
        XCTAssertEqual(try stats.json()["total"]?.integerValue, 2, stats.stdout)

        let status = try await InspectCLI.run(["store", "status", "--store", url])
        XCTAssertEqual(status.status, 0, status.stdout + status.stderr)
        XCTAssertTrue(status.stdout.contains("A") && status.stdout.contains("B"), status.stdout)
        XCTAssertFalse(status.stdout.contains(cluster.password), "the password was printed")

        for process in [first, second] {
            process.stop()
            let exit = try await process.waitForExit()
            XCTAssertEqual(exit?.status, 0, exit?.stderr ?? "serve did not stop")
            XCTAssertFalse(exit?.stderr.contains(cluster.password) ?? true, "the password was printed")
        }
    }

    func testPushesAreAnswered500WhileTheStoreRefusesRecordsAndNoRecordIsMissingOnceItTakesThemAgain() async throws {
        let cluster = try XCTUnwrap(Self.cluster)
        let database = try cluster.createDatabase("refusing")
        let url = cluster.url(database: database)
        let process = try await ServedMock.start(["--port", "0", "--quiet", "--no-control"],
                                                 readyFile: directory + "/A.json", store: .init(url: url, instance: "A"))
        let apns = process.apnsURL
        defer { process.stop() }
        let payload = directory + "/push.json"
        try Data(#"{"aps":{"alert":"hi"}}"#.utf8).write(to: URL(fileURLWithPath: payload))
        var sentTokens: [String] = []
        func send() async throws -> JSONValue {
            let token = String(format: "%064x", sentTokens.count + 1)
            sentTokens.append(token)
            let sent = try await InspectCLI.run(["send", payload, "--token", token, "--topic", "com.example.app", "--url", apns, "--json"])
            return try sent.json()
        }
        let first = try await send()
        XCTAssertEqual(first["accepted"]?.integerValue, 1)

        // The table goes away (a restore, a dropped grant): once the writer's next batch fails, no push is answered 200.
        _ = try cluster.psql("ALTER TABLE mockapns_records RENAME TO mockapns_records_away", database: database)
        var refused: JSONValue?
        for _ in 0..<200 where refused == nil {
            let summary = try await send()
            if summary["accepted"]?.integerValue == 0 { refused = summary }
        }
        let rejected = try XCTUnwrap(refused?["rejected"], "no push was refused while the store could not write")
        XCTAssertEqual(rejected.objectMembers?.map(\.key), ["500 InternalServerError"], "\(rejected)")

        _ = try cluster.psql("ALTER TABLE mockapns_records_away RENAME TO mockapns_records", database: database)
        var accepted = false
        for _ in 0..<200 where !accepted { accepted = try await send()["accepted"]?.integerValue == 1 }
        XCTAssertTrue(accepted, "pushes are accepted again once the store takes records")

        // Every request, answered 200 or 500 (the sender retries a 500), reached the store: the held records were
        // written when it came back.
        process.stop()
        let exit = try await process.waitForExit()
        XCTAssertEqual(exit?.status, 0, "nothing was lost, so the exit status is 0: \(exit?.stderr ?? "")")
        XCTAssertTrue(exit?.stderr.contains("answering 500 InternalServerError") ?? false, exit?.stderr ?? "")
        XCTAssertTrue(exit?.stderr.contains("takes records again") ?? false, exit?.stderr ?? "")
        let answered = exit?.stderr.split(separator: "\n").last { $0.contains("stopped after") }
        let list = try await InspectCLI.run(["list", "--store", url, "--json"])
        let records = try XCTUnwrap(try list.json()["notifications"]?.arrayElements, list.stderr)
        XCTAssertEqual(Set(records.compactMap { $0["device_token"]?.stringValue }), Set(sentTokens))
        XCTAssertEqual(answered.map(String.init), "mockapns: stopped after \(records.count) request(s)",
                       "every request the mock answered is in the store")
        let statuses = Set(records.compactMap { $0["response"]?["status"]?.integerValue })
        XCTAssertEqual(statuses, [200, 500])
    }

    func testRetainCountPrunesTheOldestRecordsInTheBackground() async throws {
        try await retainCountPrunes(database: "retention", mode: [])
    }

    func testRetainCountPrunesTheOldestRecordsInTheBackgroundInPollMode() async throws {
        try await retainCountPrunes(database: "retentionpoll", mode: ["--store-events", "poll"])
    }

    private func retainCountPrunes(database name: String, mode: [String]) async throws {
        let cluster = try XCTUnwrap(Self.cluster)
        let url = cluster.url(database: try cluster.createDatabase(name))
        let process = try await ServedMock.start(["--port", "0", "--quiet", "--no-control", "--retain-count", "2", "--retain-interval", "1"] + mode,
                                                 readyFile: directory + "/A.json", store: .init(url: url, instance: "A"))
        let apns = process.apnsURL
        defer { process.stop() }
        let payload = directory + "/push.json"
        try Data(#"{"aps":{"alert":"hi"}}"#.utf8).write(to: URL(fileURLWithPath: payload))
        let sent = try await InspectCLI.run(["send", payload, "--token", String(repeating: "d4", count: 32), "--topic", "com.example.app",
                                             "--url", apns, "--count", "5", "--concurrency", "1"])
        XCTAssertEqual(sent.status, 0, sent.stdout + sent.stderr)
        var ids: [Int64] = []
        for _ in 0..<300 {
            let list = try await InspectCLI.run(["list", "--store", url, "--json"])
            ids = try list.json()["notifications"]?.arrayElements?.compactMap { $0["seq"]?.integerValue } ?? []
            if ids.count == 2 { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        XCTAssertEqual(ids, [4, 5], "the two newest of five records are kept")
    }

    func testRetentionOptionsThatMakeNoSenseExit2() async throws {
        let cluster = try XCTUnwrap(Self.cluster)
        let url = cluster.url(database: "postgres")
        let cases = [["--retain-count", "5"], ["--store", url, "--retain-age", "14 days"], ["--store", url, "--retain-count=-1"],
                     ["--store", url, "--retain-count", "3", "--retain-interval", "0"]]
        for arguments in cases {
            let result = try await InspectCLI.run(["serve", "--port", "0", "--no-control"] + arguments)
            XCTAssertEqual(result.status, 2, "\(arguments): \(result.stderr)")
            XCTAssertEqual(lines(result.stderr).count, 1, result.stderr)
        }
    }

    func testAMalformedURLExits2WithOneLine() async throws {
        for url in ["mysql://u@127.0.0.1/db", "postgres://", "postgres://u@127.0.0.1:5432/db?sslmode=sometimes"] {
            let result = try await InspectCLI.run(["serve", "--port", "0", "--no-control", "--store", url])
            XCTAssertEqual(result.status, 2, "\(url): \(result.stderr)")
            XCTAssertEqual(lines(result.stderr).count, 1, "\(url): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("postgres://") || result.stderr.contains("sslmode"), result.stderr)
        }
        let reader = try await InspectCLI.run(["list", "--store", "http://127.0.0.1/db"])
        XCTAssertEqual(reader.status, 2, reader.stderr)
    }

    func testWrongCredentialsExit1WithOneLineWithoutThePassword() async throws {
        let cluster = try XCTUnwrap(Self.cluster)
        let database = try cluster.createDatabase("credentials")
        let wrong = "not-the-\(UUID().uuidString.prefix(6))"
        let result = try await InspectCLI.run(["serve", "--port", "0", "--no-control",
                                               "--store", cluster.url(database: database, password: wrong)])
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertEqual(lines(result.stderr).count, 1, result.stderr)
        XCTAssertTrue(result.stderr.contains("refused the login"), result.stderr)
        XCTAssertFalse(result.stderr.contains(wrong), "the password was printed: \(result.stderr)")

        // PGPASSWORD supplies a password the URL leaves out, as libpq users expect.
        let urlWithoutPassword = "postgres://\(cluster.user)@127.0.0.1:\(cluster.port)/\(database)?sslmode=disable"
        let migrated = try await InspectCLI.run(["store", "migrate", "--store", urlWithoutPassword],
                                                environment: ["PGPASSWORD": cluster.password])
        XCTAssertEqual(migrated.status, 0, migrated.stderr)
        XCTAssertTrue(migrated.stdout.contains("schema version"), migrated.stdout)
    }

    func testAnUnreachableHostExits1WithOneLine() async throws {
        let port = try PostgresCluster.freePort()   // nothing listens there
        let result = try await InspectCLI.run(["serve", "--port", "0", "--no-control",
                                               "--store", "postgres://mockapns:secret@127.0.0.1:\(port)/db?sslmode=disable"])
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertEqual(lines(result.stderr).count, 1, result.stderr)
        XCTAssertTrue(result.stderr.contains("cannot connect"), result.stderr)
        XCTAssertFalse(result.stderr.contains("secret"), result.stderr)
        let reader = try await InspectCLI.run(["list", "--store", "postgres://mockapns:secret@127.0.0.1:\(port)/db?sslmode=disable"])
        XCTAssertEqual(reader.status, 2, reader.stderr)
        XCTAssertEqual(lines(reader.stderr).count, 1, reader.stderr)
    }

    private func lines(_ text: String) -> [Substring] {
        text.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
    }
}
