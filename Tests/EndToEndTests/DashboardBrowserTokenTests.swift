import APNsModel
import Foundation
import PeerSupport
import XCTest

/// The web dashboard in a real browser against `mockapns serve --control-token`: the page asks for the token,
/// then lists pushes live over the authenticated stream (Tests/Peers/dashboard_token_browser.py, headless
/// chromium through selenium); without the token the API and the stream answer 401.
final class DashboardBrowserTokenTests: LeakCheckedTestCase {

    func testWithAControlTokenThePageAsksForItThenShowsPushesLive() async throws {
        let controlToken = "dash-\(UUID().uuidString.prefix(8))"
        let mock = try await DashboardBrowserMock.start(in: try makeTestDirectory("dashboard-token"),
                                                        ["--trust-any-signature", "--control-token", controlToken])
        defer { mock.process.stop() }
        let shots = RepoPaths.root + "/.build/dashboard-screenshots"
        let script = RepoPaths.peers + "/dashboard_token_browser.py"
        let result = try await DashboardBrowserTests.run(RepoPaths.python, [script, mock.controlURL, mock.apnsURL, mock.jwt, controlToken, shots])
        XCTAssertEqual(result.status, 0, "browser test failed:\n\(result.output)")
        XCTAssertTrue(result.output.contains(#""ok": true"#), result.output)
        XCTAssertTrue(result.output.contains(#""api_without_token": 401"#), result.output)
        XCTAssertTrue(FileManager.default.fileExists(atPath: "\(shots)/token-list.png"), "no token-list.png screenshot")
    }
}
