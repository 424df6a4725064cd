import Foundation
import TestSupport
import XCTest
@testable import MockAPNs
@testable import MockAPNsRecording

/// kalyke-apns (Python, httpx2 with HTTP/2), unmodified: Apple's host names built in, no host or trust option. A new
/// client, TLS connection and provider token for every push, `iat` written as a numeric string.
final class KalykeWireTests: LeakCheckedTestCase {
    func testTwoHundredConcurrentPushesAllSucceed() async throws {
        let server = try await PythonClientWireSupport.start(self)
        // kalyke opens a TLS connection per push; 25 at a time keeps the Python side within its 5 s connect timeout.
        let result = try PythonClientWireSupport.send("kalyke_send.py", to: server, count: 200, concurrency: 25)
        XCTAssertEqual(result["results"] as? [String: Int], ["200": 200], "\(result)")
        PythonClientWireSupport.assertEachRecordedOnce(server, count: 200)
    }

    func testProductionIsApiPushAppleCom() async throws {
        let server = try await PythonClientWireSupport.start(self)
        let result = try PythonClientWireSupport.send("kalyke_send.py", to: server, count: 10, concurrency: 5, production: true)
        XCTAssertEqual(result["results"] as? [String: Int], ["200": 10], "\(result)")
        PythonClientWireSupport.assertEachRecordedOnce(server, count: 10, environment: .production)
    }

    /// A connection (and token) per push is what APNs treats as abuse: the records say so, and `stats` counts them.
    func testANewConnectionPerPushIsReportedOnTheRecords() async throws {
        let server = try await PythonClientWireSupport.start(self) { $0.mock.newConnectionsPerSecondLimit = 5 }
        let result = try PythonClientWireSupport.send("kalyke_send.py", to: server, count: 100, concurrency: 25)
        XCTAssertEqual(result["results"] as? [String: Int], ["200": 100], "\(result)")
        let flagged = server.recorder.records().filter { $0.lint.contains { $0.id == "new-connection-per-push" } }
        XCTAssertFalse(flagged.isEmpty, "100 connections of one team in a burst are churn")
        XCTAssertEqual(server.recorder.statistics.newConnectionPerPush, flagged.count)
        XCTAssertEqual(server.mock.pipeline.churnFlaggedConnections, flagged.count, "one push per connection")
    }

    func testUnregisteredReturnsReasonAndTimestamp() async throws {
        let server = try await PythonClientWireSupport.start(self)
        try server.mock.devices.set(TestTokens.token64, .unregistered(timestamp: 1_700_000_000_000))
        let result = try PythonClientWireSupport.send("kalyke_send.py", to: server, count: 1, concurrency: 1)
        XCTAssertEqual(result["results"] as? [String: Int], ["410 Unregistered": 1], "\(result)")
        let sample = try XCTUnwrap((result["samples"] as? [[String: Any]])?.first)
        XCTAssertEqual(sample["timestamp"] as? Int, 1_700_000_000_000)
    }
}
