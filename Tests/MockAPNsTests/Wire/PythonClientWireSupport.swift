import APNsModel
import Foundation
import TestSupport
import XCTest
@testable import MockAPNs

/// Runs one of the `Tests/Peers/*_send.py` senders (real Python APNs client libraries nobody here wrote)
/// against a test server and checks what every sender must get: all pushes accepted and each recorded once.
enum PythonClientWireSupport {
    /// Runs `script` with the test key, topic and device token; returns its JSON summary.
    static func send(_ script: String, to server: TestServer, count: Int, concurrency: Int) throws -> [String: Any] {
        let out = try PeerProcess.run(RepoPaths.python, [
            RepoPaths.peers + "/" + script, "--port", "\(server.port)", "--ca", RepoPaths.cert("ca.pem"),
            "--key", RepoPaths.cert("AuthKey_TESTKEY001.p8"), "--key-id", "TESTKEY001", "--team-id", "TESTTEAM01",
            "--topic", "com.example.app", "--token", TestServer.token64, "--count", "\(count)", "--concurrency", "\(concurrency)",
        ], timeout: 300)
        XCTAssertEqual(out.status, 0, out.stderr)
        let object = try JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [String: Any]
        return try XCTUnwrap(object, "\(script) printed: \(out.stdout)\n\(out.stderr)")
    }

    /// Every push of `count` (payload `orderId` 0..<count) was accepted and recorded exactly once.
    static func assertEachRecordedOnce(_ server: TestServer, count: Int, file: StaticString = #filePath, line: UInt = #line) {
        server.recorder.flush()
        let records = server.recorder.records().filter { $0.response.status == 200 }
        let orderIDs = records.compactMap { $0.payload?["orderId"]?.integerValue }
        XCTAssertEqual(records.count, count, "records of accepted pushes", file: file, line: line)
        XCTAssertEqual(Set(orderIDs), Set((0..<count).map(Int64.init)), "every push recorded", file: file, line: line)
        XCTAssertEqual(orderIDs.count, count, "no push recorded twice", file: file, line: line)
    }
}
