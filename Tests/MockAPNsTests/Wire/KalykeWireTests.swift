import Foundation
import TestSupport
import XCTest
@testable import MockAPNs

/// kalyke-apns (Python, httpx2 with HTTP/2): a new client, TLS connection and provider token for every push,
/// `iat` written as a numeric string.
final class KalykeWireTests: XCTestCase {
    func testTwoHundredConcurrentPushesAllSucceed() async throws {
        let server = try TestServer.start()
        // kalyke opens a TLS connection per push; 25 at a time keeps the Python side within its 5 s connect timeout.
        let result = try PythonClientWireSupport.send("kalyke_send.py", to: server, count: 200, concurrency: 25)
        XCTAssertEqual(result["results"] as? [String: Int], ["200": 200], "\(result)")
        PythonClientWireSupport.assertEachRecordedOnce(server, count: 200)
        await server.stop()
    }

    func testUnregisteredReturnsReasonAndTimestamp() async throws {
        let server = try TestServer.start()
        server.server.devices.set(TestServer.token64, .unregistered(timestamp: 1_700_000_000_000))
        let result = try PythonClientWireSupport.send("kalyke_send.py", to: server, count: 1, concurrency: 1)
        XCTAssertEqual(result["results"] as? [String: Int], ["410 Unregistered": 1], "\(result)")
        let sample = try XCTUnwrap((result["samples"] as? [[String: Any]])?.first)
        XCTAssertEqual(sample["timestamp"] as? Int, 1_700_000_000_000)
        await server.stop()
    }
}
