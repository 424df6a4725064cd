import APNsModel
import Foundation
import PeerSupport
import XCTest

/// `mockapns send` (the APNsClient library behind a command) against `mockapns serve`, both as built binaries.
final class SendCommandTests: LeakCheckedTestCase {
    private let token = String(repeating: "ab", count: 32)

    func testSendToServeAcceptedRejectedAndUsage() async throws {
        let directory = URL(fileURLWithPath: try makeTestDirectory("mockapns-send"))
        let ready = directory.appendingPathComponent("ready.json").path
        let record = directory.appendingPathComponent("record.jsonl").path
        let serve = try await ServedMock.start(["--port", "0", "--no-control", "--record", record], readyFile: ready)
        defer { serve.stop() }
        let readyJSON = serve.ready
        let url = try XCTUnwrap(readyJSON["apns_url"]?.stringValue, "no apns_url in the ready file")

        let payload = directory.appendingPathComponent("push.json").path
        try Data(#"{"aps":{"alert":{"title":"Hi","body":"There"}}}"#.utf8).write(to: URL(fileURLWithPath: payload))
        let simulator = directory.appendingPathComponent("push.apns").path
        try Data(#"{"Simulator Target Bundle":"com.example.app","aps":{"alert":"From .apns"}}"#.utf8)
            .write(to: URL(fileURLWithPath: simulator))

        // One push, bundled CA and key, JSON summary.
        let one = try await InspectCLI.run(["send", payload, "--token", token, "--topic", "com.example.app", "--url", url, "--json"])
        XCTAssertEqual(one.status, 0, one.stdout + one.stderr)
        let summary = try one.json()
        XCTAssertEqual(summary["accepted"]?.integerValue, 1)
        XCTAssertNotNil(summary["apns_id"]?.stringValue)

        // Many pushes over a pool; the topic comes from the .apns file.
        let many = try await InspectCLI.run(["send", simulator, "--token", token, "--url", url, "--count", "500",
                                             "--concurrency", "50", "--connections", "2", "--json"])
        XCTAssertEqual(many.status, 0, many.stdout + many.stderr)
        XCTAssertEqual(try many.json()["accepted"]?.integerValue, 500)
        XCTAssertEqual(try many.json()["sent"]?.integerValue, 500)

        // A rejection: exit 1, counted by reason, in the text summary.
        let rejected = try await InspectCLI.run(["send", payload, "--token", "zz", "--topic", "com.example.app", "--url", url])
        XCTAssertEqual(rejected.status, 1, rejected.stdout + rejected.stderr)
        XCTAssertTrue(rejected.stdout.contains("rejected 400 BadDeviceToken: 1"), rejected.stdout)

        // Usage errors: exit 2 with a message.
        let badPriority = try await InspectCLI.run(["send", payload, "--token", token, "--topic", "t", "--url", url, "--priority", "7"])
        XCTAssertEqual(badPriority.status, 2)
        XCTAssertTrue(badPriority.stderr.contains("--priority 7"), badPriority.stderr)
        let noTopic = try await InspectCLI.run(["send", payload, "--token", token, "--url", url])
        XCTAssertEqual(noTopic.status, 2)
        XCTAssertTrue(noTopic.stderr.contains("--topic is required"), noTopic.stderr)
        let badKey = try await InspectCLI.run(["send", payload, "--token", token, "--topic", "t", "--key-file", "nope"])
        XCTAssertEqual(badKey.status, 2)
        XCTAssertTrue(badKey.stderr.contains("TEAMID:KEYID:PATH"), badKey.stderr)
        let noLoops = try await InspectCLI.run(["send", payload, "--token", token, "--topic", "t", "--url", url, "--loops", "0"])
        XCTAssertEqual(noLoops.status, 2)
        XCTAssertTrue(noLoops.stderr.contains("--loops must be at least 1"), noLoops.stderr)

        serve.stop()
        let exit = try await serve.waitForExit()
        XCTAssertEqual(exit?.status, 0, exit?.stderr ?? "serve did not stop on SIGINT")
        // The mock recorded exactly what was sent: 1 + 500 accepted, 1 rejected.
        let lines = try String(contentsOfFile: record, encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(lines.count, 502)
    }

    /// `--url` twice: the run is spread over both servers (an equal share of the workers each), every push is
    /// answered once, and the summary counts them all; a repeated URL is a usage error.
    func testSendSpreadsOverSeveralURLs() async throws {
        let directory = URL(fileURLWithPath: try makeTestDirectory("mockapns-send"))
        var urls: [String] = []
        var servers: [(ServedMock, String)] = []
        for name in ["a", "b"] {
            let ready = directory.appendingPathComponent("\(name).json").path
            let record = directory.appendingPathComponent("\(name).jsonl").path
            let serve = try await ServedMock.start(["--port", "0", "--no-control", "--record", record], readyFile: ready)
            servers.append((serve, record))
            let readyJSON = serve.ready
            urls.append(try XCTUnwrap(readyJSON["apns_url"]?.stringValue, "no apns_url in \(name)'s ready file"))
        }
        defer { for (serve, _) in servers { serve.stop() } }
        let payload = directory.appendingPathComponent("push.json").path
        try Data(#"{"aps":{"alert":"n={{n}}"}}"#.utf8).write(to: URL(fileURLWithPath: payload))

        let sent = try await InspectCLI.run(["send", payload, "--token", token, "--topic", "com.example.app",
                                             "--url", urls[0], "--url", urls[1], "--count", "400", "--concurrency", "20",
                                             "--payload-template", "--json"])
        XCTAssertEqual(sent.status, 0, sent.stdout + sent.stderr)
        XCTAssertEqual(try sent.json()["accepted"]?.integerValue, 400)

        var bodies: [String] = []
        for (serve, record) in servers {
            serve.stop()
            _ = try await serve.waitForExit()
            let lines = try String(contentsOfFile: record, encoding: .utf8).split(separator: "\n")
            // 20 workers, alternating between the two URLs: 10 workers × 20 pushes each.
            XCTAssertEqual(lines.count, 200, "\(record) holds \(lines.count) records")
            for line in lines {
                let match = try XCTUnwrap(line.range(of: #"n=[0-9]+"#, options: .regularExpression), String(line))
                bodies.append(String(line[match]))
            }
        }
        XCTAssertEqual(Set(bodies).count, 400, "every push number once across both servers")

        let repeated = try await InspectCLI.run(["send", payload, "--token", token, "--topic", "t", "--url", urls[0], "--url", urls[0]])
        XCTAssertEqual(repeated.status, 2)
        XCTAssertTrue(repeated.stderr.contains("--url: each server once"), repeated.stderr)
    }
}
