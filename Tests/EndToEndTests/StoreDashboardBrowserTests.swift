import APNsModel
import Foundation
import PeerSupport
import PostgresSupport
import XCTest

/// The dashboard of instance B, in headless chromium (Tests/Peers/dashboard_store_browser.py), shows pushes answered
/// by instance A through their shared store: listed when the page opens, arriving live, opened and searched.
final class StoreDashboardBrowserTests: PostgresTestCase {

    func testOneInstancesDashboardShowsAnotherInstancesPushesLive() async throws {
        let cluster = try XCTUnwrap(Self.cluster)
        let url = cluster.url(database: try cluster.createDatabase("dashboard"))
        let directory = try makeTestDirectory("mockapns-dashstore")
        let first = try await ServedMock.start(["--port", "0", "--quiet", "--no-control"],
                                               readyFile: directory + "/A.json", store: .init(url: url, instance: "A"))
        defer { first.process.stop() }
        let second = try await ServedMock.start(["--port", "0", "--quiet", "--control-port", "0"],
                                                readyFile: directory + "/B.json", store: .init(url: url, instance: "B"))
        defer { second.process.stop() }
        let apnsA = first.apnsURL
        let controlB = try XCTUnwrap(second.controlURL, "B has no control plane")
        let payload = directory + "/push.json"
        try Data(#"{"aps":{"alert":{"title":"Shared","body":"through A"}}}"#.utf8).write(to: URL(fileURLWithPath: payload))
        let seen = String(repeating: "a1", count: 32), later = String(repeating: "b2", count: 32)
        func send(_ token: String) async throws {
            let sent = try await InspectCLI.run(["send", payload, "--token", token, "--topic", "com.example.app", "--url", apnsA])
            XCTAssertEqual(sent.status, 0, sent.stdout + sent.stderr)
        }
        try await send(seen)
        let stored = try await InspectCLI.run(["expect", "--store", url, "--token", seen, "--count", "1", "--timeout", "30"])
        XCTAssertEqual(stored.status, 0, stored.stdout + stored.stderr)

        let python = RepoPaths.python
        let browser = try PeerProcess.start(python, [RepoPaths.peers + "/dashboard_store_browser.py",
                                                     controlB, RepoPaths.root + "/.build/dashboard-screenshots",
                                                     seen, later])
        defer { browser.terminate() }
        var listening = false
        for _ in 0..<600 where !listening {
            listening = browser.currentStdout.contains("listening")
            if !listening {
                if !browser.isRunning { break }
                try await Task.sleep(for: .milliseconds(100))
            }
        }
        if listening { try await send(later) }
        let result = browser.wait(timeout: 120)
        XCTAssertTrue(listening, "the page never listed the first push: \(result.stdout) \(result.stderr)")
        XCTAssertEqual(result.status, 0, "browser test failed:\n\(result.stdout)\n\(result.stderr)")
        XCTAssertTrue(result.stdout.contains(#""ok": true"#), result.stdout + result.stderr)
    }
}
