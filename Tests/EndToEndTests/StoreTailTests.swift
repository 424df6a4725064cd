import APNsModel
import Foundation
import PeerSupport
import MockAPNs
import PostgresSupport
import XCTest

/// `mockapns tail --store`: follows the records every instance writes to a shared store (a real PostgreSQL), each
/// once, existing ones first with `--since`.
final class StoreTailTests: PostgresTestCase {
    private var directory = ""

    override func setUp() async throws {
        directory = try makeTestDirectory("store-tail")
        try Data(#"{"aps":{"alert":"push {{n}}"}}"#.utf8).write(to: URL(fileURLWithPath: directory + "/push.json"))
    }

    private func send(_ count: Int, to url: String, token: String) async throws {
        let sent = try await InspectCLI.run(["send", directory + "/push.json", "--token", token, "--topic", "com.example.app",
                                             "--url", url, "--count", String(count), "--payload-template", "--json"])
        XCTAssertEqual(try sent.json()["accepted"]?.integerValue, Int64(count), sent.stdout + sent.stderr)
    }

    func testTailFollowsEveryInstancesRecordsOnce() async throws {
        let cluster = try XCTUnwrap(Self.cluster)
        let url = cluster.url(database: try cluster.createDatabase("tail"))
        let first = try await ServedMock.start(["--port", "0", "--quiet", "--no-control"],
                                               readyFile: directory + "/A.json", store: .init(url: url, instance: "A"))
        let firstURL = first.apnsURL
        let second = try await ServedMock.start(["--port", "0", "--quiet", "--no-control"],
                                                readyFile: directory + "/B.json", store: .init(url: url, instance: "B"))
        let secondURL = second.apnsURL
        let tokenA = String(repeating: "a1", count: 32), tokenB = String(repeating: "b2", count: 32)
        try await send(3, to: firstURL, token: tokenA)   // before tail starts: printed only with --since
        // Stored (the writer commits every 100 ms) before tail starts, so they are "before" for it.
        let stored = try await InspectCLI.run(["expect", "--store", url, "--token", tokenA, "--count", "3", "--timeout", "30"])
        XCTAssertEqual(stored.status, 0, stored.stdout + stored.stderr)

        let tail = try InspectFollowProcess(["tail", "--store", url, "--json"])
        let since = try InspectFollowProcess(["tail", "--store", url, "--json", "--since", "0", "--token", tokenB])
        // tail prints only what is stored after it read the newest id: probe pushes (their own token) until one is
        // printed, so the pushes below are sent to a tail that has started, however slowly the process came up.
        let probe = String(repeating: "9f", count: 32)
        try await tail.waitUntilFollowing(marker: probe, every: .milliseconds(250), attempts: 120) { _ in
            try await send(1, to: firstURL, token: probe)
        }
        try await send(20, to: firstURL, token: tokenA)
        try await send(20, to: secondURL, token: tokenB)
        let output = try await tail.waitForLines(40, timeout: .seconds(60)) { !$0.contains(probe) }
        let records = try output.split(separator: "\n").map { try RecordedRequest(jsonLine: Array($0.utf8)) }
            .filter { $0.deviceToken != probe }
        XCTAssertEqual(records.count, 40, "each new record once, none of the 3 from before")
        XCTAssertEqual(Set(records.map(\.seq)).count, 40)
        XCTAssertEqual(records.filter { $0.deviceToken == tokenA }.count, 20)
        XCTAssertEqual(records.filter { $0.deviceToken == tokenB }.count, 20)
        let filtered = try await since.waitForLines(20, timeout: .seconds(60))
        XCTAssertEqual(filtered.split(separator: "\n").count, 20, "--since 0 --token: B's pushes only")
        tail.stop()
        since.stop()
        for process in [second, first] {
            process.stop()
            _ = try await process.waitForExit(timeout: .seconds(30))
        }
    }

    func testTailSaysWhichRecordsRetentionPrunedBeforeItReadThem() async throws {
        let cluster = try XCTUnwrap(Self.cluster)
        let database = try cluster.createDatabase("tailpruned")
        let url = cluster.url(database: database)
        let serve = try await ServedMock.start(["--port", "0", "--quiet", "--no-control", "--retain-count", "5", "--retain-interval", "1"],
                                               readyFile: directory + "/pruning.json", store: .init(url: url, instance: "pruning"))
        let apns = serve.apnsURL
        try await send(30, to: apns, token: String(repeating: "c3", count: 32))
        var left = ""
        for _ in 0..<100 where left != "5/25" {
            left = try cluster.psql("SELECT count(*) || '/' || coalesce((SELECT pruned_through FROM mockapns_prune_marks), 0) "
                                    + "FROM mockapns_records", database: database)
            if left != "5/25" { try await Task.sleep(for: .milliseconds(200)) }
        }
        XCTAssertEqual(left, "5/25", "records left / pruned through")

        let tail = try InspectFollowProcess(["tail", "--store", url, "--json", "--since", "0"])
        let printed = try await tail.waitForLines(5, timeout: .seconds(30))
        XCTAssertEqual(try printed.split(separator: "\n").map { try RecordedRequest(jsonLine: Array($0.utf8)).seq }, [26, 27, 28, 29, 30])
        tail.stop()
        let exit = try await tail.waitForExit(timeout: .seconds(30))
        XCTAssertTrue(exit?.stderr.contains("records with ids 1–25 were pruned by the store's retention") ?? false, exit?.stderr ?? "")
        serve.stop()
        _ = try await serve.waitForExit(timeout: .seconds(30))
    }
}
