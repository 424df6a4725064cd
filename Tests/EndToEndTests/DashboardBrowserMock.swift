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

    /// Starts `serve --h2c --port 0 --control-port 0` with `extra` arguments (``ServedMock``, its ready file in
    /// `directory`) and mints the token.
    static func start(in directory: String, _ extra: [String]) async throws -> DashboardBrowserMock {
        let served = try await ServedMock.start(["--h2c", "--port", "0", "--control-port", "0"] + extra,
                                                readyFile: directory + "/ready.json")
        let control = try XCTUnwrap(served.controlURL)
        let keyPath = RepoPaths.root + "/certs/AuthKey_TESTKEY001.p8"
        let jwt = try await InspectCLI.run(["token", "--key-file", "TESTTEAM01:TESTKEY001:\(keyPath)"]).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
        return DashboardBrowserMock(process: served.process, apnsURL: served.apnsURL, controlURL: control, ready: served.ready,
                                    jwt: jwt)
    }
}
