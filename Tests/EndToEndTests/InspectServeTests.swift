import APNsModel
import Foundation
import PeerSupport
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `mockapns serve` with its control plane and HTTP/1.1 endpoint, inspected by the other commands
/// through the ready file — the CI workflow the README describes.
final class InspectServeTests: LeakCheckedTestCase {
    func testServeControlPlaneAndHTTP1EndpointWorkTogether() async throws {
        let directory = URL(fileURLWithPath: try makeTestDirectory("mockapns-serve"))
        let ready = directory.appendingPathComponent("ready.json").path
        let serve = try await ServedMock.start(["--h2c", "--port", "0", "--control-port", "0", "--http1-port", "0",
                                                "--trust-any-signature"], readyFile: ready)
        defer { serve.stop() }

        let readyJSON = serve.ready
        let http1 = try XCTUnwrap(readyJSON["http1_url"]?.stringValue, "no http1_url in the ready file")
        XCTAssertNotNil(readyJSON["control_url"]?.stringValue, "no control_url in the ready file")

        // A push over plain HTTP/1.1, with a token minted by `mockapns token`.
        let keyPath = RepoPaths.cert("AuthKey_TESTKEY001.p8")
        let jwt = try await InspectCLI.run(["token", "--key-file", "TESTTEAM01:TESTKEY001:\(keyPath)"]).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
        var request = URLRequest(url: URL(string: "\(http1)/3/device/\(String(repeating: "ab", count: 32))")!)
        request.httpMethod = "POST"
        request.httpBody = Data(#"{"aps":{"alert":{"title":"Shipped","body":"Order 42"}}}"#.utf8)
        request.setValue("com.example.app", forHTTPHeaderField: "apns-topic")
        request.setValue("alert", forHTTPHeaderField: "apns-push-type")
        request.setValue("bearer \(jwt)", forHTTPHeaderField: "authorization")
        let (_, response) = try await URLSession.shared.data(for: request)
        XCTAssertEqual((response as? HTTPURLResponse)?.statusCode, 200)

        let list = try await InspectCLI.run(["list", "--ready-file", ready, "--json"])
        XCTAssertEqual(list.status, 0, list.stderr)
        guard case .array(let items)? = try list.json()["notifications"] else { return XCTFail(list.stdout) }
        XCTAssertEqual(items.count, 1)
        XCTAssertEqual(items.first?["stream_id"]?.integerValue, 0)

        let expect = try await InspectCLI.run(["expect", "--ready-file", ready, "--where", "aps.alert.title=Shipped", "--count", "1"])
        XCTAssertEqual(expect.status, 0, expect.stdout + expect.stderr)

        serve.stop()
        let exit = try await serve.waitForExit()
        XCTAssertEqual(exit?.status, 0, exit?.stderr ?? "serve did not stop on SIGINT")
    }
}
