import APNsModel
import Foundation
import PeerSupport
import XCTest

/// `mockapns send` when `mockapns serve` is killed mid-run (both as built binaries): it gives up after
/// `--give-up-after` and says how far it got, or, when the server comes back in time, finishes with every push
/// accepted.
final class SendOutageTests: LeakCheckedTestCase {
    private let token = String(repeating: "ab", count: 32)

    /// A scratch directory with a payload file, removed when the test ends.
    private func scratch() throws -> (directory: URL, payload: String) {
        let directory = URL(fileURLWithPath: try makeTestDirectory("mockapns-outage"))
        let payload = directory.appendingPathComponent("push.json").path
        try Data(#"{"aps":{"alert":"outage"}}"#.utf8).write(to: URL(fileURLWithPath: payload))
        return (directory, payload)
    }

    /// Waits until `record` holds more than `lines` lines.
    private func waitForRecords(_ record: String, moreThan lines: Int) async throws {
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            if let data = FileManager.default.contents(atPath: record),
               data.lazy.filter({ $0 == UInt8(ascii: "\n") }).count > lines { return }
            try await Task.sleep(for: .milliseconds(20))
        }
        XCTFail("the server recorded no more than \(lines) pushes within 60 s")
    }

    private func killHard(_ process: InspectFollowProcess) async throws {
        XCTAssertEqual(kill(process.pid, SIGKILL), 0)
        _ = try await process.waitForExit(timeout: .seconds(30))
    }

    func testServerKilledMidRunGivesUpWithTheCounts() async throws {
        let (directory, payload) = try scratch()
        let record = directory.appendingPathComponent("record.jsonl").path
        let serverMock = try await ServedMock.start(["--port", "0", "--no-control", "--quiet"],
                                                    readyFile: record + ".ready.json", record: record)
        let server = serverMock.process, url = serverMock.apnsURL
        defer { server.stop() }
        let count = 1_000_000
        let send = try InspectFollowProcess(["send", payload, "--token", token, "--topic", "com.example.app", "--url", url,
                                             "--count", String(count), "--concurrency", "100", "--give-up-after", "2", "--json"])
        defer { send.stop() }
        // More pushes recorded than the sender keeps in flight: it sent one after an answer, so at least one answer
        // reached it before the kill. (The first record alone does not say so: its answer may still be on the way.)
        try await waitForRecords(record, moreThan: 100)
        try await killHard(server)

        let result = try await send.waitForExit(timeout: .seconds(120))
        let exit = try XCTUnwrap(result, "send did not exit within 120 s of the server's death")
        XCTAssertEqual(exit.status, 1, exit.stdout + exit.stderr)
        let summary = try exit.json()
        let sent = try XCTUnwrap(summary["sent"]?.integerValue)
        let accepted = try XCTUnwrap(summary["accepted"]?.integerValue)
        let failed = try XCTUnwrap(summary["failed_total"]?.integerValue)
        let notAttempted = try XCTUnwrap(summary["not_attempted"]?.integerValue)
        XCTAssertGreaterThan(accepted, 0, exit.stdout)
        XCTAssertGreaterThan(failed, 0, exit.stdout)
        XCTAssertGreaterThan(notAttempted, 0, exit.stdout)
        XCTAssertEqual(sent, accepted + failed + (summary["rejected_total"]?.integerValue ?? -1), exit.stdout)
        XCTAssertLessThan(failed, 1_000, "only pushes in flight or waiting at the kill may fail: \(exit.stdout)")
        XCTAssertEqual(sent + notAttempted, Int64(count), exit.stdout)
        let port = try XCTUnwrap(URLComponents(string: url)?.port)
        let gaveUp = try XCTUnwrap(summary["gave_up"]?.stringValue, exit.stdout)
        XCTAssertTrue(gaveUp.hasPrefix("could not connect to 127.0.0.1:\(port): connection refused, "), gaveUp)
    }

    func testTextSummaryNamesWhatWasNotAttempted() async throws {
        let (directory, payload) = try scratch()
        // Nothing listens: a port a server just left.
        let record = directory.appendingPathComponent("record.jsonl").path
        let serverMock = try await ServedMock.start(["--port", "0", "--no-control", "--quiet"],
                                                    readyFile: record + ".ready.json", record: record)
        let server = serverMock.process, url = serverMock.apnsURL
        server.stop()
        _ = try await server.waitForExit(timeout: .seconds(30))
        let result = try await InspectCLI.run(["send", payload, "--token", token, "--topic", "com.example.app", "--url", url,
                                               "--count", "50", "--concurrency", "5", "--give-up-after", "0.5"],
                                              timeout: .seconds(120))
        XCTAssertEqual(result.status, 1, result.stdout + result.stderr)
        XCTAssertTrue(result.stdout.hasPrefix("sent 5 of 50, accepted 0, rejected 0, failed 5, not attempted 45 in "),
                      result.stdout)
        XCTAssertTrue(result.stdout.contains("gave up: could not connect to "), result.stdout)
        XCTAssertTrue(result.stdout.contains("(--give-up-after 0.5)"), result.stdout)
        let usage = try await InspectCLI.run(["send", payload, "--token", token, "--topic", "t", "--give-up-after", "0"])
        XCTAssertEqual(usage.status, 2)
        XCTAssertTrue(usage.stderr.contains("--give-up-after must be"), usage.stderr)
    }

    func testServerBackWithinTheWindowIsReconnectedAndEveryPushAccepted() async throws {
        let (directory, payload) = try scratch()
        // Every answer takes 20 ms, so the run (5,000 pushes, 50 at a time: at least 2 s) spans the outage.
        let faults = directory.appendingPathComponent("faults.json").path
        try Data(#"{"rules": [{"name": "slow", "action": {"type": "delay", "ms": 20}}]}"#.utf8)
            .write(to: URL(fileURLWithPath: faults))
        let first = directory.appendingPathComponent("first.jsonl").path
        let serverMock = try await ServedMock.start(["--port", "0", "--no-control", "--quiet", "--faults", faults],
                                                    readyFile: first + ".ready.json", record: first)
        let server = serverMock.process, url = serverMock.apnsURL
        defer { server.stop() }
        let port = try XCTUnwrap(URLComponents(string: url)?.port)
        let count = 5_000
        let send = try InspectFollowProcess(["send", payload, "--token", token, "--topic", "com.example.app", "--url", url,
                                             "--count", String(count), "--concurrency", "50", "--give-up-after", "120", "--json"])
        defer { send.stop() }
        try await waitForRecords(first, moreThan: 0)
        try await killHard(server)
        let second = directory.appendingPathComponent("second.jsonl").path
        let againMock = try await ServedMock.start(["--port", String(port), "--no-control", "--quiet", "--faults", faults],
                                                   readyFile: second + ".ready.json", record: second)
        let again = againMock.process
        defer { again.stop() }

        let result = try await send.waitForExit(timeout: .seconds(300))
        again.stop()
        _ = try await again.waitForExit(timeout: .seconds(30))
        let exit = try XCTUnwrap(result, "send did not finish within 300 s")
        XCTAssertEqual(exit.status, 0, exit.stdout + exit.stderr)
        let summary = try exit.json()
        XCTAssertEqual(summary["accepted"]?.integerValue, Int64(count), exit.stdout)
        XCTAssertEqual(summary["not_attempted"]?.integerValue, 0, exit.stdout)
        XCTAssertNil(summary["gave_up"], exit.stdout)
        let answeredAfter = try String(contentsOfFile: second, encoding: .utf8).split(separator: "\n").count
        XCTAssertGreaterThan(answeredAfter, 0, "no push reached the restarted server")
    }
}
