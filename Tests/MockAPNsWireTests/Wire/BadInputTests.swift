import APNsModel
import Foundation
import TestSupport
import XCTest
@testable import MockAPNs
@testable import MockAPNsRecording

/// Input no real sender should send: each gets APNs's answer or a stream reset, is recorded when a
/// request was formed, and the server keeps serving.
final class BadInputTests: H2PeerTestCase {
    func testBadBodiesGetAPNsReasonsAndTheServerKeepsServing() async throws {
        let server = try await TestServer.start()
        addTeardownBlock { await server.stop() }
        let jwt = try TestTokens.jwt()
        var huge = H2Requests.Request.push(jwt: jwt, body: "")
        huge.bodyRepeat = (UInt8(ascii: "a"), 1_000_000)
        let outcome = try H2Requests.run(port: server.port, [
            .push(jwt: jwt),
            .push(jwt: jwt, body: "this is not json"),
            .push(jwt: jwt, body: "[1,2,3]"),
            huge,
            .push(jwt: jwt, body: ""),
            .push(jwt: jwt),
        ])
        let statuses = outcome.responses.map(\.status)
        XCTAssertEqual(statuses[0], 200)
        XCTAssertEqual(statuses[1], 400)
        XCTAssertEqual(statuses[2], 400)
        XCTAssertEqual(statuses[3], 413)
        XCTAssertEqual(outcome.responses[3].reason, "PayloadTooLarge")
        XCTAssertEqual(outcome.responses[4].reason, "PayloadEmpty")
        XCTAssertEqual(statuses[5], 200)
        XCTAssertEqual(server.recorder.statistics.total, 6)
        XCTAssertEqual(server.recorder.record(seq: 4)?.response.reason, "PayloadTooLarge")
        XCTAssertLessThanOrEqual(server.recorder.record(seq: 4)?.body.count ?? .max, 64 * 1024, "never buffered past the cap")
    }

    func testInvalidUTF8AndDuplicateHeaders() async throws {
        let server = try await TestServer.start()
        addTeardownBlock { await server.stop() }
        let jwt = try TestTokens.jwt()
        var invalid = H2Requests.Request.push(jwt: jwt)
        invalid.rawHeaders = [("apns-collapse-id", [0xff, 0xfe, 0x41])]
        let duplicate = H2Requests.Request.push(jwt: jwt, extra: [("apns-topic", "com.example.app")])
        var thousands = H2Requests.Request.push(jwt: jwt)
        thousands.headers += Array(repeating: ("x-junk", "1"), count: 10_000)
        let outcome = try H2Requests.run(port: server.port, [invalid, duplicate, thousands])
        XCTAssertNotNil(outcome.responses[0].status ?? outcome.responses[0].reset, "invalid UTF-8 is answered or reset")
        XCTAssertEqual(outcome.responses[1].reason, "DuplicateHeaders")
        let third = outcome.responses[2]
        XCTAssertTrue(third.status == 431 || third.reset != nil || outcome.goAway != nil,
                      "10 000 headers exceed MAX_HEADER_LIST_SIZE: \(third)")
        let after = try H2Requests.run(port: server.port, [.push(jwt: jwt)])
        XCTAssertEqual(after.responses.first?.status, 200)
    }

    func testGarbageInsteadOfThePrefaceLeavesTheServerServing() async throws {
        let server = try await TestServer.start { $0.listener.tls = nil }
        addTeardownBlock { await server.stop() }
        let out = try PeerProcess.run("/bin/sh", ["-c", "printf 'GET / HTTP/1.1\\r\\nHost: x\\r\\n\\r\\n' | timeout 5 curl -s --max-time 3 telnet://127.0.0.1:\(server.port) >/dev/null; echo done"])
        XCTAssertTrue(out.stdout.contains("done"))
        let after = try H2Requests.run(port: server.port, tls: false, [.push(jwt: try TestTokens.jwt())])
        XCTAssertEqual(after.responses.first?.status, 200)
    }
}
