import APNsModel
import Foundation
import MockAPNs
import MockAPNsHTTP2
import PeerSupport
import TestSupport
import XCTest

/// `mockapns serve` as a CI job runs it: settings from MOCKAPNS_* variables, a ready file, a recording,
/// and SIGTERM flushing the recording and exiting 0; usage errors exit 2, an unusable port exits 1.
final class ServeCommandTests: LeakCheckedTestCase {
    private static let repo = RepoPaths.root

    func testEnvironmentVariablesReadyFileRecordingAndSIGTERM() async throws {
        let dir = try makeTestDirectory("serve")
        // Port, record file and ready file from the environment only.
        let served = try await ServedMock.start(["--no-control"], readyFile: dir + "/ready.json", readyFileFromEnvironment: true,
                                                environment: ["MOCKAPNS_PORT": "0", "MOCKAPNS_RECORD": dir + "/rec.jsonl"])
        let apnsURL = served.apnsURL
        XCTAssertTrue(apnsURL.hasPrefix("https://127.0.0.1:"), apnsURL)
        XCTAssertFalse(apnsURL.hasSuffix(":2197"), "MOCKAPNS_PORT=0 picks a free port")

        let jwt = try await InspectCLI.run(["token", "--key-file", "TESTTEAM01:TESTKEY001:\(Self.repo)/certs/AuthKey_TESTKEY001.p8"])
            .stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let curl = try PeerProcess.run("/usr/bin/curl", [
            "-sS", "--http2", "--cacert", Self.repo + "/certs/ca.pem", "-o", "/dev/null", "-w", "%{http_code}",
            "-H", "authorization: bearer \(jwt)", "-H", "apns-topic: com.example.app",
            "--data-binary", #"{"aps":{"alert":"Order 42 shipped"}}"#, "\(apnsURL)/3/device/\(String(repeating: "0f", count: 32))",
        ])
        XCTAssertEqual(curl.stdout, "200", curl.stderr)

        served.terminate()   // SIGTERM
        let exit = try await served.waitForExit(timeout: .seconds(30))
        XCTAssertEqual(exit?.status, 0)
        let stderr = exit?.stderr ?? ""
        XCTAssertTrue(stderr.contains("mockapns: listening on \(apnsURL)"), stderr)
        let lines = try String(contentsOfFile: dir + "/rec.jsonl", encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(lines.count, 1, "the record was flushed before exit")
        let record = try RecordedRequest(jsonLine: Array(lines[0].utf8))
        XCTAssertEqual(record.response.status, 200)
        XCTAssertEqual(record.payload?.value(at: ["aps", "alert"]), .string("Order 42 shipped"))
    }

    func testUsageErrorsExitTwoAndStartFailuresExitOne() async throws {
        let badEnvironment = try await InspectCLI.run(["serve", "--environment", "staging", "--no-control"])
        XCTAssertEqual(badEnvironment.status, 2)
        XCTAssertTrue(badEnvironment.stderr.contains("development or production"), badEnvironment.stderr)
        let exclusive = try await InspectCLI.run(["serve", "--tls", "--h2c", "--no-control"])
        XCTAssertEqual(exclusive.status, 2)
        let noConnections = try await InspectCLI.run(["serve", "--max-connections", "0", "--no-control"])
        XCTAssertEqual(noConnections.status, 2)
        XCTAssertTrue(noConnections.stderr.contains("--max-connections must be at least 1"), noConnections.stderr)

        var blocking = MockDeployment()
        blocking.listener.port = 0
        blocking.mock.credentialsDirectory = Self.repo + "/certs"
        let blocker = try TestServer.makeServer(blocking)
        try await blocker.start()
        addTeardownBlock {
            await blocker.shutdown()
            blocker.mock.shutdown()
        }
        let busy = try await InspectCLI.run(["serve", "--port", "\(blocker.port)", "--no-control"])
        XCTAssertEqual(busy.status, 1)
        XCTAssertTrue(busy.stderr.contains("cannot start"), busy.stderr)
        XCTAssertTrue(busy.stderr.contains("\(blocker.port)"), "the message names the port: \(busy.stderr)")
    }
}
