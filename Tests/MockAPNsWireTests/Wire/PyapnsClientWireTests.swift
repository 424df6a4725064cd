import Foundation
import TestSupport
import XCTest
@testable import MockAPNs
@testable import MockAPNsRecording

/// pyapns_client (Python, httpx with HTTP/2, ALPN h2), unmodified: Apple's host names built in, the system's trust.
/// Signs its provider token with `"iat": time.time()`, a JSON number with a fraction (RFC 7519 NumericDate). One
/// client per thread (the library is built for one).
final class PyapnsClientWireTests: LeakCheckedTestCase {
    func testTwoHundredConcurrentPushesWithAFractionalIatAllSucceed() async throws {
        let server = try await PythonClientWireSupport.start(self)
        let result = try PythonClientWireSupport.send("pyapns_client_send.py", to: server, count: 200, concurrency: 10)
        XCTAssertEqual(result["results"] as? [String: Int], ["200": 200], "\(result)")
        let iat = try XCTUnwrap(result["iat"] as? Double, "\(result)")
        XCTAssertNotEqual(iat, iat.rounded(.down), "the library's iat has a fraction (else this test shows nothing)")
        PythonClientWireSupport.assertEachRecordedOnce(server, count: 200)
        XCTAssertEqual(server.recorder.records().first?.auth.issuedAt, Int64(iat.rounded(.down)), "iat read rounded down")
    }

    func testProductionIsApiPushAppleCom() async throws {
        let server = try await PythonClientWireSupport.start(self)
        let result = try PythonClientWireSupport.send("pyapns_client_send.py", to: server, count: 10, concurrency: 2, production: true)
        XCTAssertEqual(result["results"] as? [String: Int], ["200": 10], "\(result)")
        PythonClientWireSupport.assertEachRecordedOnce(server, count: 10, environment: .production)
    }

    func testUnregisteredReturnsReasonAndTimestamp() async throws {
        let server = try await PythonClientWireSupport.start(self)
        try server.mock.devices.set(TestTokens.token64, .unregistered(timestamp: 1_700_000_000_000))
        let result = try PythonClientWireSupport.send("pyapns_client_send.py", to: server, count: 1, concurrency: 1)
        XCTAssertEqual(result["results"] as? [String: Int], ["410 Unregistered": 1], "\(result)")
        let sample = try XCTUnwrap((result["samples"] as? [[String: Any]])?.first)
        XCTAssertEqual(sample["timestamp"] as? Int, 1_700_000_000_000)
    }
}
