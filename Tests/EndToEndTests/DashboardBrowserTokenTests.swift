import APNsModel
import Foundation
import PeerSupport
import XCTest

/// The web dashboard in a real browser against `mockapns serve --control-token`: the page asks for the token,
/// then lists pushes live over the authenticated stream (Tests/Peers/dashboard_token_browser.py, headless
/// chromium through selenium); without the token the API and the stream answer 401.
final class DashboardBrowserTokenTests: XCTestCase {

    func testWithAControlTokenThePageAsksForItThenShowsPushesLive() async throws {
        let python = RepoPaths.python
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("mockapns-dashboard-token-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let ready = directory.appendingPathComponent("ready.json").path
        let controlToken = "dash-\(UUID().uuidString.prefix(8))"
        let serve = try InspectFollowProcess([
            "serve", "--h2c", "--port", "0", "--control-port", "0", "--trust-any-signature", "--ready-file", ready,
            "--control-token", controlToken,
        ])
        defer { serve.stop() }
        let readyJSON = try await InspectCLI.readyFile(at: ready)
        let apns = try XCTUnwrap(readyJSON?["apns_url"]?.stringValue, "serve wrote no ready file")
        let control = try XCTUnwrap(readyJSON?["control_url"]?.stringValue)

        let keyPath = RepoPaths.root + "/certs/AuthKey_TESTKEY001.p8"
        let jwt = try await InspectCLI.run(["token", "--key-file", "TESTTEAM01:TESTKEY001:\(keyPath)"]).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let shots = RepoPaths.root + "/.build/dashboard-screenshots"
        let script = RepoPaths.peers + "/dashboard_token_browser.py"
        let result = try await DashboardBrowserTests.run(python, [script, control, apns, jwt, controlToken, shots])
        XCTAssertEqual(result.status, 0, "browser test failed:\n\(result.output)")
        XCTAssertTrue(result.output.contains(#""ok": true"#), result.output)
        XCTAssertTrue(result.output.contains(#""api_without_token": 401"#), result.output)
        XCTAssertTrue(FileManager.default.fileExists(atPath: "\(shots)/token-list.png"), "no token-list.png screenshot")
    }
}
