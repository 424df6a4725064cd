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
final class DashboardDevicesBrowserTests: XCTestCase {

    func testDevicesPageShowsTheLockScreenTimelineAndScrubsBack() async throws {
        let python = RepoPaths.python
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("mockapns-dashdevices-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let ready = directory.appendingPathComponent("ready.json").path
        let serve = try InspectFollowProcess([
            "serve", "--h2c", "--port", "0", "--control-port", "0", "--trust-any-signature", "--quiet", "--ready-file", ready,
        ])
        defer { serve.stop() }
        let readyJSON = try await InspectCLI.readyFile(at: ready)
        let apns = try XCTUnwrap(readyJSON?["apns_url"]?.stringValue, "serve wrote no ready file")
        let control = try XCTUnwrap(readyJSON?["control_url"]?.stringValue)

        let keyPath = RepoPaths.root + "/certs/AuthKey_TESTKEY001.p8"
        let jwt = try await InspectCLI.run(["token", "--key-file", "TESTTEAM01:TESTKEY001:\(keyPath)"]).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let shots = RepoPaths.root + "/.build/dashboard-screenshots"
        let script = RepoPaths.peers + "/dashboard_devices_browser.py"
        let result = try await DashboardBrowserTests.run(python, [script, control, apns, jwt, shots])
        XCTAssertEqual(result.status, 0, "browser test failed:\n\(result.output)")
        XCTAssertTrue(result.output.contains(#""ok": true"#), result.output)
        for name in ["devices", "devices-dark", "devices-offline"] {
            XCTAssertTrue(FileManager.default.fileExists(atPath: "\(shots)/\(name).png"), "no \(name).png screenshot")
        }
    }
}
