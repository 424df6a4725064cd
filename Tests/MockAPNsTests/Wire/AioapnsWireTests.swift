import Foundation
import TestSupport
import XCTest
@testable import MockAPNs

/// aioapns (Python): no ALPN, matches responses by apns-id, breaks on a DATA frame after a 200.
final class AioapnsWireTests: XCTestCase {
    private func send(_ server: TestServer, count: Int, concurrency: Int) throws -> [String: Any] {
        let out = try PeerProcess.run(RepoPaths.python, [
            RepoPaths.peers + "/aioapns_send.py", "--port", "\(server.port)", "--ca", RepoPaths.cert("ca.pem"),
            "--key", RepoPaths.cert("AuthKey_TESTKEY001.p8"), "--key-id", "TESTKEY001", "--team-id", "TESTTEAM01",
            "--topic", "com.example.app", "--token", TestServer.token64, "--count", "\(count)", "--concurrency", "\(concurrency)",
        ])
        XCTAssertEqual(out.status, 0, out.stderr)
        let object = try JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [String: Any]
        return try XCTUnwrap(object, "aioapns_send printed: \(out.stdout)\n\(out.stderr)")
    }

    func testThousandConcurrentSendsAllSucceed() async throws {
        let server = try TestServer.start()
        let result = try send(server, count: 1_000, concurrency: 1_000)
        XCTAssertEqual(result["results"] as? [String: Int], ["200": 1_000], "\(result)")
        XCTAssertEqual(server.recorder.statistics.accepted, 1_000)
        XCTAssertEqual(server.recorder.statistics.newConnectionPerPush, 0, "a pool of a few connections is no churn")
        let samples = try XCTUnwrap(result["samples"] as? [[String: Any]])
        for sample in samples {
            XCTAssertEqual(sample["apns_id"] as? String, sample["sent_id"] as? String, "responses matched by apns-id")
        }
        await server.stop()
    }

    func testUnregisteredReturnsReasonAndTimestamp() async throws {
        let server = try TestServer.start()
        try server.server.devices.set(TestServer.token64, .unregistered(timestamp: 1_700_000_000_000))
        let result = try send(server, count: 1, concurrency: 1)
        XCTAssertEqual(result["results"] as? [String: Int], ["410 Unregistered": 1], "\(result)")
        let sample = try XCTUnwrap((result["samples"] as? [[String: Any]])?.first)
        XCTAssertEqual(sample["timestamp"] as? Int, 1_700_000_000_000)
        await server.stop()
    }
}
