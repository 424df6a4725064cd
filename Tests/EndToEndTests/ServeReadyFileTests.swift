import APNsModel
import Foundation
import PeerSupport
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The README's CI recipe with two mocks on one machine: `--port 0` takes no fixed port, the ready file is
/// replaced (never stale), complete when it appears and gone after exit, `mockapns wait` finishes or fails
/// within its timeout, and a listener that cannot start names the flag to change.
///
/// The first two tests start `serve` by hand, not through ``ServedMock``: what they check is the ready file itself and
/// `mockapns wait` waiting for it, which the shared helper would have done for them.
final class ServeReadyFileTests: LeakCheckedTestCase {
    private var directory = ""

    override func setUp() async throws {
        directory = try makeTestDirectory("serve-ready")
    }

    func testTwoMocksOnPortZeroShareNoPortAndTheirReadyFilesComeAndGo() async throws {
        let firstPath = directory + "/first.json", secondPath = directory + "/second.json"
        // A stale file from an earlier run, pointing at a port nothing listens on.
        try Data(#"{"apns_url":"https://127.0.0.1:9","control_url":"http://127.0.0.1:9","pid":1}"#.utf8)
            .write(to: URL(fileURLWithPath: firstPath))
        let first = try InspectFollowProcess(["serve", "--port", "0", "--quiet", "--ready-file", firstPath])
        defer { first.stop() }
        let second = try InspectFollowProcess(["serve", "--port", "0", "--quiet", "--ready-file", secondPath])
        defer { second.stop() }

        let firstReady = try await waitReady(firstPath, pid: first.pid)
        let secondReady = try await waitReady(secondPath, pid: second.pid)
        let version = try await InspectCLI.run(["--version"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        for ready in [firstReady, secondReady] {
            guard case .object(let members) = ready else { return XCTFail("not an object: \(ready)") }
            XCTAssertEqual(Set(members.map(\.key)), ["apns_url", "ca_file", "certs_dir", "control_url", "dashboard_url", "pid", "version"])
            XCTAssertEqual(ready["certs_dir"]?.stringValue, URL(fileURLWithPath: RepoPaths.certs).standardizedFileURL.path,
                           "the test keys it trusts")
            XCTAssertEqual(ready["version"]?.stringValue, version)
            XCTAssertNotEqual(ready["apns_url"]?.stringValue, "https://127.0.0.1:9", "the stale ready file was read")
            XCTAssertNotEqual(ready["pid"]?.integerValue, 1)
        }
        let ports = [firstReady, secondReady].flatMap { ready in
            ["apns_url", "control_url"].compactMap { ready[$0]?.stringValue?.split(separator: ":").last.flatMap { Int($0) } }
        }
        XCTAssertEqual(ports.count, 4)
        XCTAssertEqual(Set(ports).count, 4, "two mocks with --port 0 must not share a port: \(ports)")
        XCTAssertFalse(ports.contains(2198), "--port 0 must not bind the default control port")
        for ready in [firstReady, secondReady] {
            let control = try XCTUnwrap(ready["control_url"]?.stringValue)
            let (_, response) = try await URLSession.shared.data(from: URL(string: control + "/healthz")!)
            XCTAssertEqual((response as? HTTPURLResponse)?.statusCode, 200)
        }

        first.stop()
        let exit = try await first.waitForExit()
        XCTAssertEqual(exit?.status, 0, exit?.stderr ?? "serve did not stop")
        XCTAssertFalse(FileManager.default.fileExists(atPath: firstPath), "the ready file outlived the server")
        XCTAssertTrue(FileManager.default.fileExists(atPath: secondPath))
    }

    func testAPortInUseNamesTheFlagToChangeAndLeavesNoReadyFile() async throws {
        let firstPath = directory + "/first.json", secondPath = directory + "/second.json"
        let first = try InspectFollowProcess(["serve", "--port", "0", "--quiet", "--ready-file", firstPath])
        defer { first.stop() }
        let ready = try await waitReady(firstPath, pid: first.pid)
        let controlPort = try XCTUnwrap(ready["control_url"]?.stringValue?.split(separator: ":").last.map(String.init))
        try Data("stale".utf8).write(to: URL(fileURLWithPath: secondPath))

        let clash = try await InspectCLI.run(["serve", "--port", "0", "--control-port", controlPort, "--ready-file", secondPath])
        XCTAssertEqual(clash.status, 1, clash.stderr)
        XCTAssertTrue(clash.stderr.contains("--control-port"), clash.stderr)
        XCTAssertFalse(clash.stderr.contains(") (errno"), "NIO's stray parenthesis: \(clash.stderr)")
        XCTAssertFalse(FileManager.default.fileExists(atPath: secondPath), "a failed start must not leave a ready file")

        let apnsPort = try XCTUnwrap(ready["apns_url"]?.stringValue?.split(separator: ":").last.map(String.init))
        let apnsClash = try await InspectCLI.run(["serve", "--port", apnsPort, "--no-control"])
        XCTAssertEqual(apnsClash.status, 1, apnsClash.stderr)
        XCTAssertTrue(apnsClash.stderr.contains("--port"), apnsClash.stderr)
    }

    func testWaitFailsWhenTheServerIsGoneOrTheTimeoutPasses() async throws {
        let missing = directory + "/never.json"
        let gone = Process()
        gone.executableURL = try InspectCLI.binary
        gone.arguments = ["--version"]
        gone.standardOutput = FileHandle.nullDevice
        try gone.run()
        gone.waitUntilExit()
        let exited = try await InspectCLI.run(["wait", "--ready-file", missing, "--pid", String(gone.processIdentifier), "--timeout", "600"],
                                              timeout: .seconds(60))
        XCTAssertEqual(exited.status, 1)
        XCTAssertTrue(exited.stderr.contains("exited before"), exited.stderr)

        // A file from an earlier run names another process: with --pid it is not mistaken for the new server's.
        let stale = directory + "/stale.json"
        try Data(#"{"apns_url":"https://127.0.0.1:9","pid":1}"#.utf8).write(to: URL(fileURLWithPath: stale))
        let notStale = try await InspectCLI.run(["wait", "--ready-file", stale, "--pid", String(gone.processIdentifier)])
        XCTAssertEqual(notStale.status, 1, "a stale ready file was taken as ready: \(notStale.stdout)")

        let timedOut = try await InspectCLI.run(["wait", "--ready-file", missing, "--timeout", "0.3"])
        XCTAssertEqual(timedOut.status, 1)
        XCTAssertTrue(timedOut.stderr.contains("not written within"), timedOut.stderr)

        let usage = try await InspectCLI.run(["wait", "--ready-file", missing, "--timeout", "-1"])
        XCTAssertEqual(usage.status, 2, usage.stderr)
    }

    func testOneLogLinePerRequestAtInfoAndNoneWithQuiet() async throws {
        for quiet in [false, true] {
            let path = directory + "/ready-\(quiet).json"
            let serve = try await ServedMock.start(["--port", "0", "--no-control"] + (quiet ? ["--quiet"] : []), readyFile: path)
            defer { serve.stop() }
            let url = serve.apnsURL
            let payload = directory + "/push.json"
            try Data(#"{"aps":{"alert":"hi"}}"#.utf8).write(to: URL(fileURLWithPath: payload))
            let token = String(repeating: "ab", count: 32)
            let sent = try await InspectCLI.run(["send", payload, "--url", url, "--topic", "com.example.app", "--token", token])
            XCTAssertEqual(sent.status, 0, sent.stderr)
            let bad = try await InspectCLI.run(["send", payload, "--url", url, "--topic", "com.example.app", "--token", "abc"])
            XCTAssertEqual(bad.status, 1, bad.stderr)
            serve.stop()
            let stderr = try await serve.waitForExit()?.stderr ?? ""
            let lines = stderr.split(separator: "\n").filter { $0.contains(" → ") }
            if quiet {
                XCTAssertEqual(lines, [], "--quiet printed request lines")
            } else {
                XCTAssertEqual(lines.count, 2, stderr)
                XCTAssertTrue(lines.first?.hasSuffix(" µs") == true && lines.first?.contains("POST /3/device/\(token) → 200") == true, stderr)
                XCTAssertTrue(lines.last?.contains("POST /3/device/abc → 400 BadDeviceToken, ") == true, stderr)
            }
            XCTAssertEqual(stderr.components(separatedBy: "listening on").count - 1, 1, "start-up line printed more than once: \(stderr)")
        }
    }

    func testRequestLogAccountsForEveryRequestWithinItsRate() async throws {
        let path = directory + "/ready-burst.json"
        let serve = try await ServedMock.start(["--port", "0", "--no-control"], readyFile: path)
        defer { serve.stop() }
        let url = serve.apnsURL
        let payload = directory + "/burst.json"
        try Data(#"{"aps":{"alert":"hi"}}"#.utf8).write(to: URL(fileURLWithPath: payload))
        let count = 600
        let sent = try await InspectCLI.run(["send", payload, "--url", url, "--topic", "com.example.app",
                                             "--token", String(repeating: "cd", count: 32), "--count", String(count)])
        XCTAssertEqual(sent.status, 0, sent.stderr)
        serve.stop()
        let stderr = try await serve.waitForExit()?.stderr ?? ""
        let lines = stderr.split(separator: "\n").filter { $0.contains(" → 200, ") }
        // Every request is either printed or counted in an "… and N more" line, whatever the timing.
        let counted = stderr.split(separator: "\n").compactMap { line -> Int? in
            guard let range = line.range(of: "… and ") else { return nil }
            return Int(line[range.upperBound...].prefix { $0.isNumber })
        }
        XCTAssertEqual(lines.count + counted.reduce(0, +), count, stderr)
        XCTAssertLessThanOrEqual(lines.count, count)
    }

    /// `mockapns wait` on `path` for process `pid`, then the file's JSON.
    private func waitReady(_ path: String, pid: Int32) async throws -> JSONValue {
        let wait = try await InspectCLI.run(["wait", "--ready-file", path, "--pid", String(pid), "--timeout", "60"])
        XCTAssertEqual(wait.status, 0, wait.stderr)
        let data = try XCTUnwrap(FileManager.default.contents(atPath: path), "wait returned but \(path) is missing")
        XCTAssertEqual(try JSONValue.parse(Array(data)), try JSONValue.parse(Array(wait.stdout.utf8)), "wait prints the ready file")
        return try JSONValue.parse(Array(data))
    }
}
