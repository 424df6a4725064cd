import Foundation
import PeerSupport
import XCTest

/// The dashboard's Devices page in a real browser: `mockapns serve` on free ports, then
/// Tests/Peers/dashboard_devices_browser.py sends pushes with curl over HTTP/2 (a collapse-id replacement, two chat
/// messages in one thread with a badge, one while the device is offline, a Live Activity update) and drives headless
/// chromium through selenium: the device picked from the recently seen tokens, its lock screen (stacks by thread,
/// newest first, with counts; the badge; the stale Live Activity), the timeline with outcome and rule, scrubbing back
/// to earlier instants, and the online/offline, app-state and tap controls. Screenshots go to
/// .build/dashboard-screenshots/devices.png (and devices-dark.png, devices-offline.png).
final class DashboardDevicesBrowserTests: LeakCheckedTestCase {

    func testDevicesPageShowsTheLockScreenTimelineAndScrubsBack() async throws {
        let mock = try await DashboardBrowserMock.start(in: try makeTestDirectory("dashboard-devices"), ["--trust-any-signature", "--quiet"])
        defer { mock.process.stop() }
        let shots = RepoPaths.root + "/.build/dashboard-screenshots"
        let script = RepoPaths.peers + "/dashboard_devices_browser.py"
        let result = try await DashboardBrowserTests.run(RepoPaths.python, [script, mock.controlURL, mock.apnsURL, mock.jwt, shots])
        XCTAssertEqual(result.status, 0, "browser test failed:\n\(result.output)")
        XCTAssertTrue(result.output.contains(#""ok": true"#), result.output)
        for name in ["devices", "devices-dark", "devices-offline"] {
            XCTAssertTrue(FileManager.default.fileExists(atPath: "\(shots)/\(name).png"), "no \(name).png screenshot")
        }
    }
}
