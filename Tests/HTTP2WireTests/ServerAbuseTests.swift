import Foundation
import PeerSupport
import HTTP2
import HTTP2TestSupport
import XCTest

/// Misbehaving peers; after each, the server must still serve a normal request.
final class ServerAbuseTests: ServerTestCase {
    /// Connects a plain TCP socket to 127.0.0.1:port, sends `bytes`, and reads until EOF (or 10 s).
    private func sendRaw(port: Int, bytes: [UInt8]) throws -> (received: Int, closedByServer: Bool) {
        let connection = try XCTUnwrap(LoopbackConnection(port: port, receiveTimeout: 10), "cannot connect to port \(port)")
        connection.send(bytes)
        let outcome = connection.readUntilClosed()
        return (outcome.bytes.count, outcome.closedByServer)
    }

    /// Waits up to 5 s for the server to count `count` open connections.
    private func waitForOpenConnections(_ server: HTTP2Server, _ count: Int) {
        _ = Poll.blockingUntil(timeout: .seconds(5)) { server.openConnectionCount == count }
        XCTAssertEqual(server.openConnectionCount, count)
    }

    func testConnectionsOverTheLimitAreClosedAndTheLimitFreesUp() async throws {
        let (server, _) = try await startServer(tls: false) { $0.maxConnections = 2 }
        var buffer = [UInt8](repeating: 0, count: 4096)
        // h2c: an accepted connection gets the server's SETTINGS at once; one over the limit gets EOF.
        let first = try XCTUnwrap(LoopbackConnection(port: server.localPort, receiveTimeout: 5))
        XCTAssertGreaterThan(first.receive(into: &buffer), 0)
        let second = try XCTUnwrap(LoopbackConnection(port: server.localPort, receiveTimeout: 5))
        defer { second.close() }
        XCTAssertGreaterThan(second.receive(into: &buffer), 0)
        waitForOpenConnections(server, 2)
        let third = try XCTUnwrap(LoopbackConnection(port: server.localPort, receiveTimeout: 5))
        XCTAssertEqual(third.receive(into: &buffer), 0, "over the limit: closed at once")
        third.close()
        XCTAssertEqual(server.openConnectionCount, 2)

        first.close()
        waitForOpenConnections(server, 1)
        try assertStillServes(server, tls: false)
    }

    func testGarbageInsteadOfPrefaceClosesConnectionH2C() async throws {
        let (server, _) = try await startServer(tls: false)
        let garbage = Array("GET / HTTP/1.1\r\nHost: x\r\n\r\n".utf8) + [UInt8](repeating: 0xFF, count: 200)
        let outcome = try sendRaw(port: server.localPort, bytes: garbage)
        XCTAssertTrue(outcome.closedByServer)
        try assertStillServes(server, tls: false)
    }

    func testGarbageInsteadOfTLSHandshakeClosesConnection() async throws {
        let (server, _) = try await startServer()
        let outcome = try sendRaw(port: server.localPort, bytes: [UInt8](repeating: 0x42, count: 300))
        XCTAssertTrue(outcome.closedByServer)
        try assertStillServes(server)
    }

    func testClientDisconnectingMidStream() async throws {
        let (server, handler) = try await startServer()
        let result = try PythonH2.run(mode: "disconnect", port: server.localPort, ca: pki.caPath)
        XCTAssertEqual(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "disconnected", result.stderr)
        XCTAssertTrue(Poll.blockingUntil { handler.closed.count == 1 }, "the server never noticed the disconnect")
        XCTAssertTrue(handler.requests.isEmpty, "an incomplete request must not reach the handler")
        try assertStillServes(server)
    }

    func testStreamsPastTheLimitAreRefused() async throws {
        let (server, _) = try await startServer { $0.maxConcurrentStreams = 2 }
        let result = try PythonH2.run(mode: "refused", port: server.localPort, ca: pki.caPath, extra: ["5"])
        XCTAssertEqual(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "ok=2 refused=3", result.stderr)
        try assertStillServes(server)
    }

    func testHeaderBlockOverTheLimitIsAnswered431() async throws {
        let (server, handler) = try await startServer()
        let result = try PythonH2.run(mode: "bigheader", port: server.localPort, ca: pki.caPath, extra: ["20000"])
        XCTAssertEqual(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "status=431 reset=None terminated=False",
                       result.stderr)
        XCTAssertTrue(handler.requests.isEmpty)
        // The handler hears of it, with what was read: pseudo-headers and the fields before the oversized one.
        XCTAssertEqual(handler.refused.map(\.status), [431])
        XCTAssertEqual(handler.refused.first?.request.path, "/echo")
        XCTAssertNil(handler.refused.first?.request.header("x-big"))
        try assertStillServes(server)
    }

    func testHugeHeaderBlockDoesNotCrash() async throws {
        // Far over the limit (and over nghttp2's own per-field limit): any refusal is fine, a crash is not.
        let (server, handler) = try await startServer()
        let result = try PythonH2.run(mode: "bigheader", port: server.localPort, ca: pki.caPath, extra: ["200000"])
        XCTAssertFalse(result.stdout.contains("status=200"), result.stdout)
        // nghttp2 ends the session (COMPRESSION_ERROR); the handler still hears of the request, unanswered.
        XCTAssertTrue(Poll.blockingUntil { handler.refused.count == 1 }, "refused: \(handler.refused.map(\.status))")
        XCTAssertEqual(handler.refused.first?.status, 0)
        XCTAssertEqual(handler.refused.first?.request.path, "/echo")
        try assertStillServes(server)
    }

    func testBodyPastTheCapIsFlaggedAndTruncated() async throws {
        let (server, handler) = try await startServer { $0.maxBodyBytes = 1024 }
        let bodyFile = try makeTestDirectory("http2-body", file: "body")
        try String(repeating: "b", count: 200_000).write(toFile: bodyFile, atomically: true, encoding: .utf8)
        let result = try curl(server, path: "/overflow", extra: ["--data-binary", "@" + bodyFile])
        XCTAssertTrue(result.stdout.hasPrefix("HTTP/2 413"), result.stdout + result.stderr)
        let request = try XCTUnwrap(handler.requests.first)
        XCTAssertTrue(request.bodyOverflowed)
        XCTAssertEqual(request.body.count, 1024)
        // Exactly at the cap is fine.
        let exact = try curl(server, path: "/overflow", extra: ["-d", String(repeating: "c", count: 1024)])
        XCTAssertTrue(exact.stdout.hasPrefix("HTTP/2 200"), exact.stdout)
        XCTAssertTrue(exact.stdout.contains("x-body-length: 1024"), exact.stdout)
        try assertStillServes(server)
    }

    func testPeerThatNeverReadsIsBoundedAndOthersAreServed() async throws {
        let highWater = 256 * 1024
        let (server, handler) = try await startServer { $0.outputHighWaterMark = highWater }
        // 40 requests for 1 MiB each with huge flow-control windows, 40 more a second later; never reads.
        let stubborn = try PythonH2.start(mode: "noread", port: server.localPort, ca: pki.caPath, extra: ["40", "30"])
        defer { stubborn.terminate() }
        XCTAssertTrue(Poll.blockingUntil(timeout: .seconds(30)) { handler.requests.count >= 40 && server.peakPendingOutputBytes > 0 },
                      "the server never blocked on the stubborn peer (\(handler.requests.count) requests)")
        try assertStillServes(server)
        XCTAssertTrue(Poll.blockingUntil(timeout: .seconds(30)) { stubborn.currentStdout.contains("sent2") })
        try assertStillServes(server)
        // The second batch sits unread in the socket: the server stopped reading from that peer.
        XCTAssertEqual(handler.requests.filter { $0.path == "/big" }.count, 40)
        // Bounded: at most the high-water mark plus one encrypted batch.
        XCTAssertLessThanOrEqual(server.peakPendingOutputBytes, highWater + 128 * 1024)
        stubborn.terminate()
        try assertStillServes(server)
    }
}
