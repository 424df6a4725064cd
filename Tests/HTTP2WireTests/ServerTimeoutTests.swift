import Foundation
import PeerSupport
import HTTP2
import HTTP2TestSupport
import XCTest

/// The preface and idle timeouts: silent or idle peers are closed, busy ones are not.
final class ServerTimeoutTests: ServerTestCase {
    /// Opens a TCP connection, sends nothing, and reads until the server closes it (or 20 s pass).
    /// Returns the bytes received and whether the server closed the connection.
    private func readSilently(port: Int) throws -> (bytes: [UInt8], closedByServer: Bool) {
        let connection = try XCTUnwrap(LoopbackConnection(port: port, receiveTimeout: 20), "cannot connect to port \(port)")
        return connection.readUntilClosed()
    }

    /// The frames in `bytes` as (type, payload).
    private func frames(_ bytes: [UInt8]) -> [(type: UInt8, payload: [UInt8])] {
        var result: [(UInt8, [UInt8])] = []
        var offset = 0
        while offset + 9 <= bytes.count {
            let length = Int(bytes[offset]) << 16 | Int(bytes[offset + 1]) << 8 | Int(bytes[offset + 2])
            guard offset + 9 + length <= bytes.count else { break }
            result.append((bytes[offset + 3], Array(bytes[(offset + 9)..<(offset + 9 + length)])))
            offset += 9 + length
        }
        return result
    }

    func testSilentH2CConnectionGetsGoAwayIdleTimeoutThenClose() async throws {
        let (server, _) = try await startServer(tls: false) {
            $0.prefaceTimeout = .milliseconds(300)
            $0.idleTimeout = nil
        }
        let outcome = try readSilently(port: server.localPort)
        XCTAssertTrue(outcome.closedByServer, "a connection without preface must be closed")
        let goAway = try XCTUnwrap(frames(outcome.bytes).first { $0.type == 7 }, "no GOAWAY before the close")
        XCTAssertEqual(Array(goAway.payload[4..<8]), [0, 0, 0, 0], "GOAWAY error code NO_ERROR")
        XCTAssertEqual(String(decoding: goAway.payload[8...], as: UTF8.self), "IdleTimeout")
        XCTAssertTrue(Poll.blockingUntil { server.openConnectionCount == 0 })
        try assertStillServes(server, tls: false)
    }

    func testTLSConnectionThatNeverHandshakesIsClosed() async throws {
        let (server, _) = try await startServer { $0.prefaceTimeout = .milliseconds(300) }
        let outcome = try readSilently(port: server.localPort)
        XCTAssertTrue(outcome.closedByServer, "a TLS connection without handshake must be closed")
        XCTAssertTrue(outcome.bytes.isEmpty)
        XCTAssertTrue(Poll.blockingUntil { server.openConnectionCount == 0 })
        try assertStillServes(server)
    }

    func testPrefaceTimeoutDoesNotCloseAConnectionThatSentItsPreface() async throws {
        // The preface timeout is short, the idle timeout long: a connection that spoke is left alone.
        let (server, _) = try await startServer {
            $0.prefaceTimeout = .milliseconds(200)
            $0.idleTimeout = .seconds(600)
        }
        let result = try PythonH2.run(mode: "slowbody", port: server.localPort, ca: pki.caPath, extra: ["1.5"])
        XCTAssertEqual(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "status=200 body=late terminated=False",
                       result.stderr)
    }

    func testConnectionWithAnOpenStreamIsNotIdle() async throws {
        // No bytes for several idle timeouts, but a request is in progress: not idle, not closed.
        let (server, _) = try await startServer { $0.idleTimeout = .milliseconds(200) }
        let result = try PythonH2.run(mode: "slowbody", port: server.localPort, ca: pki.caPath, extra: ["1.5"])
        XCTAssertEqual(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "status=200 body=late terminated=False",
                       result.stderr)
    }
}
