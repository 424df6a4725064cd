import APNsModel
import Foundation
import PeerSupport
import XCTest

/// `mockapns serve --webhook` between real processes: `mockapns send` pushes, the mock posts matching records to a
/// real receiver (Tests/Peers/webhook_receiver.py) that checks their signatures; the counts show in `/metrics` and
/// `/api/v1/stats`; a receiver that never answers costs the senders nothing; a bad URL is a usage error.
final class ServeWebhookTests: LeakCheckedTestCase {
    private var directory = ""
    private var peers: [RunningPeer] = []
    private static let python = RepoPaths.python

    override func setUp() async throws {
        directory = try makeTestDirectory("serve-webhook")
        try Data(#"{"aps":{"alert":"push {{n}}"}}"#.utf8).write(to: URL(fileURLWithPath: directory + "/push.json"))
    }

    override func tearDown() async throws {
        for peer in peers { peer.terminate() }
    }

    private func receiver(port: Int, log: String, _ options: [String] = []) throws {
        let peer = try PeerProcess.start(Self.python, ["-u", RepoPaths.peers + "/webhook_receiver.py", String(port), log] + options)
        peers.append(peer)
        for _ in 0..<300 where !peer.currentStdout.contains("listening") { usleep(20_000) }
        XCTAssertTrue(peer.currentStdout.contains("listening"), "the receiver did not start")
    }

    private func send(_ count: Int, topic: String, to url: String) async throws -> JSONValue {
        let result = try await InspectCLI.run(["send", directory + "/push.json", "--token", String(repeating: "ab", count: 32),
                                               "--topic", topic, "--url", url, "--count", String(count), "--concurrency", "10",
                                               "--payload-template", "--json"], timeout: .seconds(120))
        return try result.json()
    }

    private func get(_ url: String) throws -> String {
        try PeerProcess.run("/usr/bin/curl", ["-sS", url], timeout: 30).stdout
    }

    private func deliveries(_ log: String) -> [JSONValue] {
        ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n").compactMap { try? JSONValue.parse(Array($0.utf8)) }
    }

    func testMatchingPushesArePostedSignedInOrderAndCounted() async throws {
        let port = try PeerProcess.freePort(), log = directory + "/hook.jsonl"
        try receiver(port: port, log: log, ["--secret", "s3cret"])
        let serve = try await ServedMock.start(["--port", "0", "--control-port", "0", "--quiet",
                                                "--webhook", "http://127.0.0.1:\(port)/hook", "--webhook-secret", "s3cret",
                                                "--webhook-match", "topic:com.example.app"], readyFile: directory + "/ready.json")
        defer { serve.stop() }
        let apns = serve.apnsURL, control = try XCTUnwrap(serve.controlURL)
        let app = try await send(60, topic: "com.example.app", to: apns)
        XCTAssertEqual(app["accepted"]?.integerValue, 60, app.jsonText())
        let other = try await send(20, topic: "com.example.other", to: apns)
        XCTAssertEqual(other["accepted"]?.integerValue, 20, other.jsonText())

        let arrived = try await Poll.until { deliveries(log).count >= 60 }
        XCTAssertTrue(arrived, "\(deliveries(log).count) of 60 arrived")
        let got = deliveries(log)
        XCTAssertEqual(got.count, 60, "only the matching pushes, each once")
        XCTAssertTrue(got.allSatisfy { $0["signature_ok"] == .bool(true) }, "every signature checks out")
        let seqs = got.compactMap { $0["seq"]?.integerValue }
        XCTAssertEqual(seqs, seqs.sorted(), "in record order")

        let counted = try await Poll.until { try get(control + "/metrics").contains(#"mockapns_webhook_delivered_total{webhook="0"} 60"#) }
        let metrics = try get(control + "/metrics")
        XCTAssertTrue(counted, metrics)
        let stats = try JSONValue.parse(Array(try get(control + "/api/v1/stats").utf8))
        XCTAssertEqual(stats["webhooks"]?.arrayElements?.first?["delivered"]?.integerValue, 60, stats.jsonText())
        XCTAssertEqual(stats["webhooks"]?.arrayElements?.first?["url"]?.stringValue, "http://127.0.0.1:\(port)/hook")
        XCTAssertEqual(stats["total"]?.integerValue, 80)

        // Each record's detail says what the webhook did with it; `stats` prints the webhook's counts.
        let seq = try XCTUnwrap(seqs.last)
        let detail = try JSONValue.parse(Array(try get(control + "/api/v1/notifications/\(seq)").utf8))
        XCTAssertEqual(detail["webhooks"]?.arrayElements?.first?["state"]?.stringValue, "delivered", detail.jsonText())
        XCTAssertEqual(detail["webhooks"]?.arrayElements?.first?["attempts"]?.integerValue, 1)
        let unmatched = try JSONValue.parse(Array(try get(control + "/api/v1/notifications/80").utf8))
        XCTAssertEqual(unmatched["webhooks"]?.arrayElements?.first?["state"]?.stringValue, "not matched", unmatched.jsonText())
        let text = try await InspectCLI.run(["stats", "--server", control])
        XCTAssertTrue(text.stdout.contains("WEBHOOK") && text.stdout.contains("http://127.0.0.1:\(port)/hook"), text.stdout)
    }

    func testAReceiverThatNeverAnswersCostsTheSendersNothing() async throws {
        let port = try PeerProcess.freePort(), log = directory + "/hook.jsonl"
        try receiver(port: port, log: log, ["--hang"])
        let serve = try await ServedMock.start(["--port", "0", "--control-port", "0", "--quiet",
                                                "--webhook", "http://127.0.0.1:\(port)/hook", "--webhook-timeout", "0.5",
                                                "--webhook-queue", "10", "--webhook-attempts", "1"], readyFile: directory + "/ready.json")
        defer { serve.stop() }
        let apns = serve.apnsURL, control = try XCTUnwrap(serve.controlURL)
        let sent = try await send(500, topic: "com.example.app", to: apns)
        XCTAssertEqual(sent["accepted"]?.integerValue, 500, "every push answered 200 while the webhook hangs: \(sent.jsonText())")
        let counted = try await Poll.until {
            let stats = try JSONValue.parse(Array(try get(control + "/api/v1/stats").utf8))
            return (stats["webhooks"]?.arrayElements?.first?["failed"]?.integerValue ?? 0) > 0 && (stats["webhooks"]?.arrayElements?.first?["dropped"]?.integerValue ?? 0) > 0
        }
        let statsText = try get(control + "/api/v1/stats")
        XCTAssertTrue(counted, statsText)
        let stats = try JSONValue.parse(Array(try get(control + "/api/v1/stats").utf8))
        XCTAssertEqual(stats["webhooks"]?.arrayElements?.first?["delivered"]?.integerValue, 0)
    }

    func testWebhookUsageErrorsExit2WithOneLine() async throws {
        let bad = try await InspectCLI.run(["serve", "--port", "0", "--no-control", "--webhook", "ftp://user:secret@example.com/in"])
        XCTAssertEqual(bad.status, 2, bad.stderr)
        XCTAssertTrue(bad.stderr.contains("--webhook ftp://example.com/in"), bad.stderr)
        XCTAssertFalse(bad.stderr.contains("secret"), "the password is not shown: \(bad.stderr)")
        let orphan = try await InspectCLI.run(["serve", "--port", "0", "--no-control", "--webhook-secret", "x"])
        XCTAssertEqual(orphan.status, 2, orphan.stderr)
        XCTAssertTrue(orphan.stderr.contains("go with --webhook URL"), orphan.stderr)
        let badQuery = try await InspectCLI.run(["serve", "--port", "0", "--no-control", "--webhook", "http://127.0.0.1:9/",
                                                 "--webhook-match", "nosuchfield:x"])
        XCTAssertEqual(badQuery.status, 2, badQuery.stderr)
        XCTAssertTrue(badQuery.stderr.contains("--webhook-match"), badQuery.stderr)
    }
}
