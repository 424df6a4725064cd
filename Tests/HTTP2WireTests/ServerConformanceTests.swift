import Foundation
import HTTP2
import HTTP2TestSupport
import XCTest

/// The h2spec checks the server once failed, as raw-frame regressions (h2spec itself is not needed to run them).
/// Each sends frames on a stream that is closed (or half-closed) and expects STREAM_CLOSED, as RFC 9113 §5.1 asks;
/// nghttp2 can only tell while it remembers closed streams. Each runs over h2c and TLS.
final class ServerConformanceTests: ServerTestCase {
    private func assertStreamClosed(_ scenario: String, file: StaticString = #filePath, line: UInt = #line) async throws {
        for tls in [false, true] {
            let (server, _) = try await startServer(tls: tls)
            let result = try PythonH2.run(mode: "closed", port: server.localPort, ca: tls ? pki.caPath : nil, extra: [scenario])
            XCTAssertTrue(result.stdout.hasPrefix("stream_closed=True"),
                          "\(scenario) (\(tls ? "TLS" : "h2c")): \(result.stdout) \(result.stderr)", file: file, line: line)
            try assertStillServes(server, tls: tls, file: file, line: line)
        }
    }

    /// RFC 9113 §8.2.1: a field name with capitals makes the request malformed. The stream is reset with
    /// PROTOCOL_ERROR before any of it reaches the handler, so handlers only ever see lowercase names (what
    /// `HTTPHeaderField` promises, and what the mock's header conversion relies on); the connection serves on.
    func testCapitalizedFieldNameResetsTheStreamBeforeTheHandler() async throws {
        for tls in [false, true] {
            let (server, handler) = try await startServer(tls: tls)
            let result = try PythonH2.run(mode: "uppercase", port: server.localPort, ca: tls ? pki.caPath : nil)
            XCTAssertEqual(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "status=None reset=1 next=200",
                           "\(tls ? "TLS" : "h2c"): \(result.stderr)")
            XCTAssertEqual(handler.requests.count, 1, "only the well-formed request reaches the handler")
            XCTAssertFalse(handler.requests.contains { $0.headers.contains { $0.name != $0.name.lowercased() } })
        }
    }

    /// h2spec http2/5.1 #5: DATA after the request's END_STREAM (half-closed (remote), or closed once answered).
    func testDataOnHalfClosedStreamGetsStreamClosed() async throws {
        try await assertStreamClosed("data-half-closed")
    }

    /// h2spec http2/5.1 #8: DATA after the client's own RST_STREAM.
    func testDataAfterResetGetsStreamClosed() async throws {
        try await assertStreamClosed("data-after-rst")
    }

    /// h2spec http2/5.1 #9: HEADERS after the client's own RST_STREAM.
    func testHeadersAfterResetGetsStreamClosed() async throws {
        try await assertStreamClosed("headers-after-rst")
    }

    /// h2spec http2/5.1 #11: DATA on a stream that was answered and closed.
    func testDataOnClosedStreamGetsStreamClosed() async throws {
        try await assertStreamClosed("data-after-close")
    }

    /// h2spec http2/5.1 #12: HEADERS on a stream that was answered and closed.
    func testHeadersOnClosedStreamGetsStreamClosed() async throws {
        try await assertStreamClosed("headers-after-close")
    }

    /// h2spec http2/5.1.1 #2: HEADERS opening a stream whose id is lower than one the client already opened is a
    /// connection error PROTOCOL_ERROR (RFC 9113 §5.1.1); nghttp2 1.52 ignores it, the server says it.
    func testHeadersOnALowerNeverOpenedStreamIsAProtocolError() async throws {
        for tls in [false, true] {
            let (server, handler) = try await startServer(tls: tls)
            let result = try PythonH2.run(mode: "closed", port: server.localPort, ca: tls ? pki.caPath : nil, extra: ["headers-lower-idle"])
            XCTAssertTrue(result.stdout.contains("GOAWAY:1"), "\(tls ? "TLS" : "h2c"): \(result.stdout) \(result.stderr)")
            XCTAssertEqual(handler.requests.count, 1, "only stream 5 reached the handler")
            try assertStillServes(server, tls: tls)
        }
    }

    /// Trailers (a second HEADERS on an open stream) and a client skipping ids upward are not that error.
    func testTrailersAndSkippedIdsAreNotAProtocolError() async throws {
        let (server, _) = try await startServer(tls: false)
        let result = try PythonH2.run(mode: "closed", port: server.localPort, ca: nil, extra: ["headers-after-close"])
        XCTAssertFalse(result.stdout.contains("GOAWAY:1"), "a HEADERS on a closed stream is STREAM_CLOSED, not PROTOCOL_ERROR: \(result.stdout)")
    }
}
