import Foundation
import TestSupport
import XCTest
@testable import MockAPNs
@testable import MockAPNsRecording

/// aioapns (Python), unmodified: Apple's host names built in (`api.development.push.apple.com` for the sandbox,
/// `api.push.apple.com`), no ALPN, matches responses by apns-id, breaks on a DATA frame after a 200.
final class AioapnsWireTests: LeakCheckedTestCase {
    func testThousandConcurrentSendsAllSucceed() async throws {
        let server = try await PythonClientWireSupport.start(self)
        let result = try PythonClientWireSupport.send("aioapns_send.py", to: server, count: 1_000, concurrency: 1_000)
        XCTAssertEqual(result["results"] as? [String: Int], ["200": 1_000], "\(result)")
        XCTAssertEqual(server.recorder.statistics.accepted, 1_000)
        XCTAssertEqual(server.recorder.statistics.newConnectionPerPush, 0, "a pool of a few connections is no churn")
        let samples = try XCTUnwrap(result["samples"] as? [[String: Any]])
        for sample in samples {
            XCTAssertEqual(sample["apns_id"] as? String, sample["sent_id"] as? String, "responses matched by apns-id")
        }
        XCTAssertEqual(Set(server.recorder.records().map(\.environment)), [.development], "api.development.push.apple.com")
    }

    func testProductionIsApiPushAppleCom() async throws {
        let server = try await PythonClientWireSupport.start(self)
        let result = try PythonClientWireSupport.send("aioapns_send.py", to: server, count: 20, concurrency: 20, production: true)
        XCTAssertEqual(result["results"] as? [String: Int], ["200": 20], "\(result)")
        XCTAssertEqual(Set(server.recorder.records().map(\.environment)), [.production])
    }

    func testUnregisteredReturnsReasonAndTimestamp() async throws {
        let server = try await PythonClientWireSupport.start(self)
        try server.mock.devices.set(TestTokens.token64, .unregistered(timestamp: 1_700_000_000_000))
        let result = try PythonClientWireSupport.send("aioapns_send.py", to: server, count: 1, concurrency: 1)
        XCTAssertEqual(result["results"] as? [String: Int], ["410 Unregistered": 1], "\(result)")
        let sample = try XCTUnwrap((result["samples"] as? [[String: Any]])?.first)
        XCTAssertEqual(sample["timestamp"] as? Int, 1_700_000_000_000)
    }
}
