import APNsModel
import Foundation
import TestSupport
import XCTest
@testable import MockAPNs
@testable import MockAPNsRecording

/// Runs one of the `Tests/Peers/*_send.py` senders (real Python APNs client libraries nobody here wrote, called as
/// their own users call them: nothing patched) against a mock serving Apple's names, and checks what every sender
/// must get: all pushes accepted and each recorded once, with the environment the library's host implied.
enum PythonClientWireSupport {
    /// A mock on Apple's names and ports, stopped when the test ends.
    static func start(_ test: XCTestCase, _ configure: (inout MockDeployment) -> Void = { _ in }) async throws -> AppleHostsTestServer {
        let server = try await AppleHostsTestServer.start(directory: try test.makeTestDirectory("python-client"), configure)
        test.addTeardownBlock { await server.stop() }
        return server
    }

    /// Runs `script` with the test key, topic and device token, to the library's sandbox host (or its production
    /// host); returns its JSON summary.
    static func send(_ script: String, to server: AppleHostsTestServer, count: Int, concurrency: Int,
                     production: Bool = false) throws -> [String: Any] {
        let out = try server.runRouted(RepoPaths.python, [
            RepoPaths.peers + "/" + script,
            "--key", RepoPaths.cert("AuthKey_TESTKEY001.p8"), "--key-id", "TESTKEY001", "--team-id", "TESTTEAM01",
            "--topic", "com.example.app", "--token", TestTokens.token64, "--count", "\(count)", "--concurrency", "\(concurrency)",
        ] + (production ? ["--production"] : []), timeout: 300)
        XCTAssertEqual(out.status, 0, out.stderr)
        let object = try JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [String: Any]
        return try XCTUnwrap(object, "\(script) printed: \(out.stdout)\n\(out.stderr)")
    }

    /// Every push of `count` (payload `orderId` 0..<count) was accepted and recorded exactly once, in `environment`.
    static func assertEachRecordedOnce(_ server: AppleHostsTestServer, count: Int, environment: APNsEnvironment = .development,
                                       file: StaticString = #filePath, line: UInt = #line) {
        server.recorder.flush()
        let records = server.recorder.records().filter { $0.response.status == 200 }
        let orderIDs = records.compactMap { $0.payload?["orderId"]?.integerValue }
        XCTAssertEqual(records.count, count, "records of accepted pushes", file: file, line: line)
        XCTAssertEqual(Set(orderIDs), Set((0..<count).map(Int64.init)), "every push recorded", file: file, line: line)
        XCTAssertEqual(orderIDs.count, count, "no push recorded twice", file: file, line: line)
        XCTAssertEqual(Set(records.map(\.environment)), [environment], "the library's host name set the environment",
                       file: file, line: line)
    }
}
