import APNsModel
import Foundation
import PeerSupport
import XCTest

/// The mock the dashboard's browser tests drive: `mockapns serve --h2c` on free ports with its control plane, and a
/// provider token from the bundled test key for the pushes the scripts send.
struct DashboardBrowserMock {
    /// The running `serve`; stop it at the end of the test.
    let process: InspectFollowProcess
    /// The APNs endpoint (h2c).
    let apnsURL: String
    /// The control plane, which also serves the dashboard.
    let controlURL: String
    /// What the ready file says.
    let ready: JSONValue?
    /// A provider token signed with the bundled TESTKEY001.
    let jwt: String

    /// Starts `serve --h2c --port 0 --control-port 0` with `extra` arguments in `directory` and waits for its ready file.
    static func start(in directory: String, _ extra: [String]) async throws -> DashboardBrowserMock {
        let readyPath = directory + "/ready.json"
        let process = try InspectFollowProcess(["serve", "--h2c", "--port", "0", "--control-port", "0", "--ready-file", readyPath] + extra)
        let ready = try await InspectCLI.readyFile(at: readyPath)
        let apns = try XCTUnwrap(ready?["apns_url"]?.stringValue, "serve wrote no ready file")
        let control = try XCTUnwrap(ready?["control_url"]?.stringValue)
        let keyPath = RepoPaths.root + "/certs/AuthKey_TESTKEY001.p8"
        let jwt = try await InspectCLI.run(["token", "--key-file", "TESTTEAM01:TESTKEY001:\(keyPath)"]).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
        return DashboardBrowserMock(process: process, apnsURL: apns, controlURL: control, ready: ready, jwt: jwt)
    }
}
