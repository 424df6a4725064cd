import Foundation
import PeerSupport
import XCTest

/// `mockapns health`, the image's HEALTHCHECK: healthy while serve answers /healthz (with a control token set too,
/// which the probe does not have), unhealthy with the reason once it stopped or where nothing listens.
final class HealthCommandTests: LeakCheckedTestCase {
    func testHealthIsTheControlPlanesAnswerNotTheReadyFilesPresence() async throws {
        let directory = try makeTestDirectory("health")
        let ready = directory + "/ready.json"
        let serve = try await ServedMock.start(["--port", "0", "--control-port", "0", "--control-token", "s3cret", "--quiet"],
                                               readyFile: ready)
        defer { serve.stop() }
        let healthy = try await InspectCLI.run(["health", "--ready-file", ready])
        XCTAssertEqual(healthy.status, 0, healthy.stderr)
        let fromEnvironment = try await InspectCLI.run(["health"], environment: ["MOCKAPNS_READY_FILE": ready])
        XCTAssertEqual(fromEnvironment.status, 0, fromEnvironment.stderr)

        let nothing = try await InspectCLI.run(["health", "--server", "http://127.0.0.1:9", "--timeout", "2"])
        XCTAssertEqual(nothing.status, 1)
        XCTAssertTrue(nothing.stderr.contains("unhealthy"), nothing.stderr)

        // A ready file left behind by a server that no longer answers is not health.
        let stale = directory + "/stale.json"
        try Data(#"{"apns_url":"https://127.0.0.1:9","control_url":"http://127.0.0.1:9","pid":1}"#.utf8)
            .write(to: URL(fileURLWithPath: stale))
        let leftOver = try await InspectCLI.run(["health", "--ready-file", stale, "--timeout", "2"])
        XCTAssertEqual(leftOver.status, 1, leftOver.stderr)

        serve.stop()
        _ = try await serve.waitForExit(timeout: .seconds(30))
        let stopped = try await InspectCLI.run(["health", "--ready-file", ready])
        XCTAssertEqual(stopped.status, 1)
        XCTAssertTrue(stopped.stderr.contains("no ready file"), stopped.stderr)
        let usage = try await InspectCLI.run(["health"], environment: ["MOCKAPNS_READY_FILE": nil])
        XCTAssertEqual(usage.status, 2, usage.stderr)
    }
}
