import APNsModel
import Foundation
import TestSupport
import XCTest
@testable import MockAPNs
@testable import MockAPNsRecording

/// Requests the transport refuses before the pipeline (431: header list over SETTINGS_MAX_HEADER_LIST_SIZE) are
/// recorded with what was read of them, in memory and in the `--record` file, like every other answer.
final class RefusedRequestRecordingTests: H2PeerTestCase {
    func testHeaderListTooLargeIsAnswered431AndRecordedWithWhatWasRead() async throws {
        let path = try makeTestDirectory("refused", file: "refused.jsonl")
        let server = try await TestServer.start { $0.mock.recordPath = path }
        addTeardownBlock { await server.stop() }
        let jwt = try TestTokens.jwt()
        // An 8 KB token: the authorization field alone is past the 8 000-byte limit; the fields before it fit.
        var oversized = H2Requests.Request.push(jwt: nil, extra: [("apns-id", "0a0b0c0d-0000-1111-2222-333344445555")])
        oversized.headers.append(("authorization", "bearer " + String(repeating: "A", count: 8192)))
        let outcome = try H2Requests.run(port: server.port, [oversized, .push(jwt: jwt)])
        XCTAssertEqual(outcome.responses.map(\.status), [431, 200])

        XCTAssertEqual(server.recorder.statistics.total, 2)
        let refused = try XCTUnwrap(server.recorder.record(seq: 1))
        XCTAssertEqual(refused.response.status, 431)
        XCTAssertNil(refused.response.reason)
        XCTAssertEqual(refused.method, "POST")
        XCTAssertEqual(refused.path, "/3/device/\(TestTokens.token64)")
        XCTAssertEqual(refused.deviceToken, TestTokens.token64)
        XCTAssertEqual(refused.header("apns-topic"), "com.example.app", "fields read before the limit are kept")
        XCTAssertEqual(refused.response.apnsID, "0a0b0c0d-0000-1111-2222-333344445555")
        XCTAssertNil(refused.header("authorization"), "the field past the limit was not kept")
        XCTAssertEqual(refused.auth.kind, "none")
        XCTAssertEqual(server.recorder.record(seq: 2)?.response.status, 200)

        await server.stop()
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(try lines.map { try RecordedRequest(jsonLine: Array($0.utf8)).response.status }, [431, 200])
    }

    /// A header field past nghttp2's own decoder limit ends the connection (COMPRESSION_ERROR) before any answer:
    /// the request is still recorded, with status 0 (no answer) and what was read of it.
    func testRequestLostWithAConnectionTheDecoderRefusedIsRecordedUnanswered() async throws {
        let server = try await TestServer.start()
        addTeardownBlock { await server.stop() }
        var huge = H2Requests.Request.push(jwt: nil)
        huge.headers.append(("x-huge", String(repeating: "h", count: 200_000)))
        let outcome = try H2Requests.run(port: server.port, [huge])
        XCTAssertNotEqual(outcome.responses.first?.status, 200)
        let deadline = Date().addingTimeInterval(10)
        while server.recorder.statistics.total == 0 && Date() < deadline { usleep(10_000) }
        let record = try XCTUnwrap(server.recorder.record(seq: 1))
        XCTAssertEqual(record.response.status, 0)
        XCTAssertEqual(record.path, "/3/device/\(TestTokens.token64)")
        XCTAssertNil(record.header("x-huge"))
        let after = try H2Requests.run(port: server.port, [.push(jwt: try TestTokens.jwt())])
        XCTAssertEqual(after.responses.first?.status, 200)
    }
}
