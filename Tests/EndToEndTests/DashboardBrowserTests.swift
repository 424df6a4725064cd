import APNsModel
import Foundation
import PeerSupport
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The web dashboard in a real browser: `mockapns serve` on free ports, then Tests/Peers/dashboard_browser.py
/// drives headless chromium through selenium (live list, search, detail with the iPhone rendering and app-state
/// switch, a fault added from the form) and saves screenshots under .build/dashboard-screenshots.
final class DashboardBrowserTests: LeakCheckedTestCase {

    func testDashboardShowsLivePushesSearchDetailAndFaults() async throws {
        let mock = try await DashboardBrowserMock.start(in: try makeTestDirectory("dashboard"), ["--trust-any-signature"])
        defer { mock.process.stop() }
        XCTAssertEqual(mock.ready?["dashboard_url"]?.stringValue, mock.controlURL + "/")
        let shots = RepoPaths.root + "/.build/dashboard-screenshots"
        let script = RepoPaths.peers + "/dashboard_browser.py"
        let result = try await Self.run(RepoPaths.python, [script, mock.controlURL, mock.apnsURL, mock.jwt, shots])
        XCTAssertEqual(result.status, 0, "browser test failed:\n\(result.output)")
        XCTAssertTrue(result.output.contains(#""ok": true"#), result.output)
        for name in ["list-light", "list-dark", "detail-light", "detail-dark"] {
            XCTAssertTrue(FileManager.default.fileExists(atPath: "\(shots)/\(name).png"), "no \(name).png screenshot")
        }
    }

    /// A burst of 20 000 pushes at full speed with the page open (Tests/Peers/dashboard_load.py): the DOM stays
    /// bounded, the heap small, stats are polled at most about twice a second, the counters end exact and the first
    /// page of a full mock is requested once. The script prints its figures (latency, throughput ratio) for the
    /// note; latency is checked only against a freeze, never as a timing bound.
    func testDashboardStaysBoundedUnderABurst() async throws {
        let mock = try await DashboardBrowserMock.start(in: try makeTestDirectory("dashboard-load"), ["--trust-any-signature", "--quiet"])
        defer { mock.process.stop() }
        let script = RepoPaths.peers + "/dashboard_load.py"
        let result = try await Self.run(RepoPaths.python, [script, mock.controlURL, mock.apnsURL, mock.jwt, "20000"])
        print(result.output)
        XCTAssertEqual(result.status, 0, "dashboard load test failed:\n\(result.output)")
        XCTAssertTrue(result.output.contains(#""ok": true"#), result.output)
    }

    func testNoDashboardFlagLeavesTheRootA404() async throws {
        let directory = URL(fileURLWithPath: try makeTestDirectory("mockapns-nodash"))
        let ready = directory.appendingPathComponent("ready.json").path
        let serve = try await ServedMock.start(["--h2c", "--port", "0", "--control-port", "0", "--no-dashboard"],
                                               readyFile: ready)
        defer { serve.stop() }
        let readyJSON = serve.ready
        let control = try XCTUnwrap(readyJSON["control_url"]?.stringValue, "serve wrote no ready file")
        XCTAssertNil(readyJSON["dashboard_url"]?.stringValue)
        let (_, response) = try await URLSession.shared.data(from: URL(string: control + "/")!)
        XCTAssertEqual((response as? HTTPURLResponse)?.statusCode, 404)
    }

    /// Runs `executable arguments…` to the end; its exit status and combined output.
    /// A relaying mock's dashboard (Tests/Peers/dashboard_relay_browser.py): the detail of a relayed push shows the
    /// mock's verdict beside the upstream's, the disagreeing status marked.
    func testDashboardShowsTheMocksVerdictBesideTheUpstreams() async throws {
        let python = RepoPaths.python
        let directory = URL(fileURLWithPath: try makeTestDirectory("mockapns-dashrelay"))
        let devices = directory.appendingPathComponent("devices.json").path
        try Data(#"[{"token": "\#(String(repeating: "cd", count: 32))", "state": "unregistered", "timestamp": 1700000000000}]"#.utf8)
            .write(to: URL(fileURLWithPath: devices))
        let upstreamReady = directory.appendingPathComponent("upstream.json").path
        let upstream = try await ServedMock.start(["--port", "0", "--no-control", "--quiet", "--devices", devices],
                                                  readyFile: upstreamReady)
        defer { upstream.stop() }
        let upstreamJSON = upstream.ready
        let upstreamURL = try XCTUnwrap(upstreamJSON["apns_url"]?.stringValue)
        let ready = directory.appendingPathComponent("ready.json").path
        // A webhook nobody listens for: each record's detail says it failed.
        let relay = try await ServedMock.start(["--port", "0", "--control-port", "0", "--quiet",
                                                "--relay", upstreamURL, "--relay-ca", RepoPaths.root + "/certs/ca.pem",
                                                "--webhook", "http://127.0.0.1:9/hook", "--webhook-attempts", "1",
                                                "--webhook-timeout", "1"], readyFile: ready)
        defer { relay.stop() }
        let readyJSON = relay.ready
        let apns = try XCTUnwrap(readyJSON["apns_url"]?.stringValue)
        let control = try XCTUnwrap(readyJSON["control_url"]?.stringValue)
        let payload = directory.appendingPathComponent("push.json").path
        try Data(#"{"aps":{"alert":"relayed"}}"#.utf8).write(to: URL(fileURLWithPath: payload))
        for token in [String(repeating: "ab", count: 32), String(repeating: "cd", count: 32)] {
            _ = try await InspectCLI.run(["send", payload, "--token", token, "--topic", "com.example.app", "--url", apns])
        }
        let stats = try await InspectCLI.run(["stats", "--server", control, "--json"])
        let relayStats = try stats.json()["relay"]
        XCTAssertEqual(relayStats?["relayed"]?.integerValue, 2, stats.stdout)
        XCTAssertEqual(relayStats?["disagreements"]?.integerValue, 1, "the upstream's 410 against the mock's 200: \(stats.stdout)")
        let shots = RepoPaths.root + "/.build/dashboard-screenshots"
        let script = RepoPaths.peers + "/dashboard_relay_browser.py"
        let result = try await Self.run(python, [script, control, shots])
        XCTAssertEqual(result.status, 0, "browser test failed:\n\(result.output)")
        XCTAssertTrue(result.output.contains(#""ok": true"#), result.output)
    }

    /// A push the FCM front door made (Tests/Peers/dashboard_fcm_browser.py): its detail shows the FCM message it
    /// delivers, as the sender wrote it, and what FCM answered.
    func testDashboardShowsTheFCMMessageAPushDelivers() async throws {
        let directory = try makeTestDirectory("mockapns-dashfcm")
        let served = try await ServedMock.start(["--port", "0", "--control-port", "0", "--fcm", "--fcm-port", "0",
                                                 "--fcm-https-port", "0", "--ca-dir", directory + "/ca", "--quiet"],
                                                readyFile: directory + "/ready.json", environment: ["XDG_DATA_HOME": directory + "/data"])
        defer { served.stop() }
        let control = try XCTUnwrap(served.controlURL)
        let title = "Dashboard \(UInt32.random(in: 1000...9999))"
        let (_, name) = try FCMCurl(directory: directory).sendNotification(ready: served.ready, control: control, title: title)
        let shots = RepoPaths.root + "/.build/dashboard-screenshots"
        let result = try await Self.run(RepoPaths.python, [RepoPaths.peers + "/dashboard_fcm_browser.py", control, shots, name, title])
        XCTAssertEqual(result.status, 0, "browser test failed:\n\(result.output)")
        XCTAssertTrue(result.output.contains(#""ok": true"#), result.output)
    }

    static func run(_ executable: String, _ arguments: [String]) async throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let folder = URL(fileURLWithPath: try TestDirectory.make("dashboard-browser"))
        let output = folder.appendingPathComponent("output.log")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        let handle = try FileHandle(forWritingTo: output)
        defer { try? FileManager.default.removeItem(at: folder) }
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        // The browser scripts time themselves out; this deadline only keeps a wedged browser from hanging the suite.
        if try await !Poll.until(timeout: .seconds(600), every: .milliseconds(100), { !process.isRunning }) {
            process.terminate()
            process.waitUntilExit()
        }
        try handle.close()
        return (process.terminationStatus, (try? String(contentsOf: output, encoding: .utf8)) ?? "")
    }
}
