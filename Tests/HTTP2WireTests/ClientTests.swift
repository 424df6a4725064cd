import Foundation
import HTTP2
import HTTP2TestSupport
import PeerSupport
import XCTest

/// `HTTP2ClientConnection` against our server and against nghttpd.
final class ClientTests: ClientServerTestCase {
    func testSendOverTLSWithALPN() async throws {
        let (server, handler) = try await startServer()
        let connection = try await connect(server, tls: trustTestCA)
        let alpn = await connection.alpn
        XCTAssertEqual(alpn, "h2")
        let response = try await connection.send(HTTP2ClientRequest(
            method: "POST", path: "/echo", headers: [HTTPHeaderField(name: "x-a", value: "1")], body: Array("hi".utf8)))
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.header("x-body-length"), "2")
        XCTAssertEqual(response.body, Array("hi".utf8))
        XCTAssertEqual(handler.requests.first?.header("x-a"), "1")
        XCTAssertEqual(handler.requests.first?.authority, "localhost:\(server.localPort)")
        await connection.close()
    }

    func testAHostNameThatDoesNotResolveIsSaidSoNotCalledAListeningAddress() async throws {
        do {
            let connection = try await client.connect(host: "no-such-host.invalid", port: 2197, tls: nil)
            await connection.close()
            XCTFail("a .invalid name resolved")
        } catch {
            let message = error.description
            XCTAssertTrue(message.hasPrefix("could not connect: the host no-such-host.invalid (port 2197) does not resolve ("), message)
            XCTAssertTrue(message.hasSuffix("): check the host name in the URL, or use an IP address"), message)
        }
    }

    func testH2CPriorKnowledge() async throws {
        let (server, _) = try await startServer(tls: false)
        let connection = try await connect(server, host: "127.0.0.1", tls: nil)
        let response = try await connection.send(HTTP2ClientRequest(path: "/echo"))
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.header("x-alpn"), "none")
        await connection.close()
    }

    func testWithoutALPNStillSpeaksHTTP2() async throws {
        let (server, handler) = try await startServer()
        var tls = trustTestCA
        tls.applicationProtocols = []
        let connection = try await connect(server, tls: tls)
        let alpn = await connection.alpn
        XCTAssertNil(alpn)
        let response = try await connection.send(HTTP2ClientRequest(path: "/echo"))
        XCTAssertEqual(response.status, 200)
        XCTAssertNil(handler.requests.first?.alpn)
        await connection.close()
    }

    func testMultiplexingHonoursTheServersStreamLimit() async throws {
        let (server, handler) = try await startServer { $0.maxConcurrentStreams = 5 }
        let connection = try await connect(server, tls: trustTestCA)
        let limit = await connection.maxConcurrentStreams
        XCTAssertEqual(limit, 5)
        let statuses = try await withThrowingTaskGroup(of: Int.self) { tasks in
            for _ in 0..<30 {
                tasks.addTask { try await connection.send(HTTP2ClientRequest(path: "/delay")).status }
            }
            return try await tasks.reduce(into: [Int]()) { $0.append($1) }
        }
        XCTAssertEqual(statuses, Array(repeating: 200, count: 30))
        XCTAssertEqual(handler.requests.count, 30)
        XCTAssertLessThanOrEqual(handler.maxInFlight, 5)
        XCTAssertGreaterThan(handler.maxInFlight, 1, "requests were not multiplexed")
        await connection.close()
    }

    func testSettingsChangesAreHonoured() async throws {
        let (server, _) = try await startServer { $0.initialMaxConcurrentStreams = { _ in 1 } }
        let connection = try await connect(server, tls: trustTestCA)
        let before = await connection.maxConcurrentStreams
        XCTAssertEqual(before, 1)
        let response = try await connection.send(HTTP2ClientRequest(path: "/limit"))
        XCTAssertEqual(response.status, 200)
        let after = await connection.maxConcurrentStreams
        XCTAssertEqual(after, 7)
        await connection.close()
    }

    func testGoAwayFailsUnprocessedStreamsAsRetryable() async throws {
        let (server, handler) = try await startServer()
        let connection = try await connect(server, tls: trustTestCA)
        // Stream 1 is in flight (answered after 300 ms); streams 3, 5, 7 too (never answered).
        let first = Task { try await connection.send(HTTP2ClientRequest(path: "/delay")) }
        XCTAssertTrue(Poll.blockingUntil { handler.requests.count == 1 })
        let later = (0..<3).map { _ in Task { try await connection.send(HTTP2ClientRequest(path: "/never")) } }
        XCTAssertTrue(Poll.blockingUntil { handler.requests.count == 4 })
        // This request makes the server send GOAWAY(last-stream-id = 1).
        do {
            _ = try await connection.send(HTTP2ClientRequest(path: "/goaway-low"))
            XCTFail("expected GOAWAY")
        } catch {
            XCTAssertEqual(error, .goAway(retryable: true))
        }
        for task in later {
            do {
                _ = try await task.value
                XCTFail("a stream above last-stream-id must fail")
            } catch let error as HTTP2ClientError {
                XCTAssertEqual(error, .goAway(retryable: true))
            }
        }
        // Stream 1 (≤ last-stream-id) completes normally.
        let response = try await first.value
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.streamID, 1)
        // No new requests on this connection.
        let accepting = await connection.isAcceptingRequests
        XCTAssertFalse(accepting)
        do {
            _ = try await connection.send(HTTP2ClientRequest(path: "/echo"))
            XCTFail("a connection that received GOAWAY must not take new requests")
        } catch {
            XCTAssertEqual(error, .goAway(retryable: true))
        }
    }

    func testRequestTimeoutCancelsTheStreamOnly() async throws {
        let (server, _) = try await startServer()
        let connection = try await connect(server, tls: trustTestCA)
        do {
            _ = try await connection.send(HTTP2ClientRequest(path: "/never", timeout: .milliseconds(200)))
            XCTFail("expected a timeout")
        } catch {
            XCTAssertEqual(error, .timeout)
        }
        let response = try await connection.send(HTTP2ClientRequest(path: "/echo"))
        XCTAssertEqual(response.status, 200)
        await connection.close()
    }

    /// Each request times out at its own deadline, whatever the order they were sent in: a short timeout sent
    /// after a long one is not held until the long one's deadline, and answered requests never time out.
    func testTimeoutsFireAtEachRequestsOwnDeadline() async throws {
        let (server, _) = try await startServer()
        let connection = try await connect(server, tls: trustTestCA)
        let clock = ContinuousClock()
        let start = clock.now
        async let long: Duration = Self.timeOut(connection, after: .milliseconds(1500), clock: clock, start: start)
        try await Task.sleep(for: .milliseconds(50))
        async let short: Duration = Self.timeOut(connection, after: .milliseconds(150), clock: clock, start: start)
        for _ in 0..<20 {
            let response = try await connection.send(HTTP2ClientRequest(path: "/echo", timeout: .milliseconds(100)))
            XCTAssertEqual(response.status, 200)
        }
        let (shortAt, longAt) = try await (short, long)
        XCTAssertGreaterThanOrEqual(shortAt, .milliseconds(200))
        XCTAssertLessThan(shortAt, .milliseconds(1000), "the short timeout waited for the long one")
        XCTAssertGreaterThanOrEqual(longAt, .milliseconds(1500))
        await connection.close()
    }

    /// Sends a request that is never answered and returns when (since `start`) it failed with `.timeout`.
    private static func timeOut(_ connection: HTTP2ClientConnection, after timeout: Duration, clock: ContinuousClock,
                                start: ContinuousClock.Instant) async throws -> Duration {
        do {
            _ = try await connection.send(HTTP2ClientRequest(path: "/never", timeout: timeout))
            XCTFail("expected a timeout")
        } catch {
            XCTAssertEqual(error, .timeout)
        }
        return clock.now - start
    }

    func testStreamResetIsReported() async throws {
        let (server, _) = try await startServer()
        let connection = try await connect(server, tls: trustTestCA)
        do {
            _ = try await connection.send(HTTP2ClientRequest(path: "/reset"))
            XCTFail("expected a reset")
        } catch {
            XCTAssertEqual(error, .streamReset(errorCode: 8))
        }
        await connection.close()
    }

    func testPing() async throws {
        let (server, _) = try await startServer()
        let connection = try await connect(server, tls: trustTestCA)
        let rtt = try await connection.ping()
        XCTAssertGreaterThan(rtt, .zero)
        await connection.close()
    }

    func testClientCertificateReachesTheServer() async throws {
        let (server, handler) = try await startServer(requestClientCertificate: true)
        var tls = trustTestCA
        tls.certificateChain = .file(pki.clientCertPath)
        tls.privateKey = .file(pki.clientKeyPath)
        let connection = try await connect(server, tls: tls)
        let response = try await connection.send(HTTP2ClientRequest(path: "/echo"))
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(handler.requests.first?.peerCertificateDER, pki.clientCertificateDER)
        await connection.close()
    }

    func testHostnameMismatchFailsTheHandshake() async throws {
        let (server, _) = try await startServer()
        var tls = trustTestCA
        tls.serverName = "wrong.example"
        do {
            _ = try await connect(server, tls: tls)
            XCTFail("expected a handshake failure")
        } catch let error as HTTP2ClientError {
            guard case let .tlsHandshakeFailed(reason) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(reason.contains("hostname mismatch"), reason)
        }
        try assertStillServes(server)
    }

    func testUntrustedServerFailsTheHandshake() async throws {
        let (server, _) = try await startServer()
        do {
            _ = try await connect(server, tls: TLSClientConfiguration())
            XCTFail("expected a handshake failure")
        } catch let error as HTTP2ClientError {
            guard case let .tlsHandshakeFailed(reason) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(reason.contains("certificate"), reason)
        }
    }

    func testConnectionRefusedIsConnectFailed() async throws {
        let port = try PeerProcess.freePort()
        do {
            _ = try await client.connect(host: "127.0.0.1", port: port, tls: nil)
            XCTFail("expected a connect failure")
        } catch {
            guard case let .connectFailed(reason) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(reason.contains("refused"), reason)
        }
    }

    func testCloseStopsNewRequests() async throws {
        let (server, _) = try await startServer()
        let connection = try await connect(server, tls: trustTestCA)
        _ = try await connection.send(HTTP2ClientRequest(path: "/echo"))
        await connection.close()
        do {
            _ = try await connection.send(HTTP2ClientRequest(path: "/echo"))
            XCTFail("a closed connection must not take requests")
        } catch {
            XCTAssertEqual(error, .connectionClosed)
        }
    }

    /// Once its client has shut down, a connection's calls answer at once: its loop is gone, and a task queued there
    /// would never run (NIO drops it), so a caller waiting for one would wait forever.
    func testAConnectionOfAShutDownClientFailsAtOnce() async throws {
        let (server, _) = try await startServer()
        let client = HTTP2Client()
        let connection = try await client.connect(host: "localhost", port: server.localPort, tls: trustTestCA)
        await client.shutdown()
        do {
            _ = try await connection.send(HTTP2ClientRequest(path: "/echo"))
            XCTFail("a connection of a shut-down client took a request")
        } catch {
            XCTAssertEqual(error, .connectionClosed)
        }
        do {
            _ = try await connection.ping()
            XCTFail("a connection of a shut-down client answered a ping")
        } catch {
            XCTAssertEqual(error, .connectionClosed)
        }
        let accepting = await connection.isAcceptingRequests
        XCTAssertFalse(accepting)
        await connection.close()
    }

    func testCloseLetsInFlightRequestsFinish() async throws {
        let (server, handler) = try await startServer()
        let connection = try await connect(server, tls: trustTestCA)
        let inFlight = Task { try await connection.send(HTTP2ClientRequest(path: "/delay")) }
        XCTAssertTrue(Poll.blockingUntil { handler.requests.count == 1 })
        await connection.close()
        let response = try await inFlight.value
        XCTAssertEqual(response.status, 200)
        XCTAssertTrue(Poll.blockingUntil { handler.closed.count == 1 }, "the connection should close once the stream is done")
    }

    /// A client created, used and shut down at once, again and again, leaves no descriptor behind: its loop's
    /// descriptors go with it even when the connection's last task arrives after the loop stopped, and a
    /// connection still open at shutdown is closed with its loop (its socket with it).
    func testClientShutDownRightAfterUseLeaksNoDescriptors() async throws {
        let (server, _) = try await startServer()
        func round(closing: Bool) async throws {
            let client = HTTP2Client()
            let connection = try await client.connect(host: "localhost", port: server.localPort, tls: trustTestCA)
            let response = try await connection.send(HTTP2ClientRequest(method: "GET", path: "/echo"))
            XCTAssertEqual(response.status, 200)
            if closing { await connection.close() }
            await client.shutdown()
        }
        try await round(closing: true)   // warm up
        let before = try await ProcessProbe.settledOpenDescriptors()
        for _ in 0..<10 { try await round(closing: true) }
        let afterClosing = try await ProcessProbe.settledOpenDescriptors()
        XCTAssertEqual(afterClosing, before, "descriptors leaked over 10 rounds that closed the connection")
        for _ in 0..<10 { try await round(closing: false) }
        let afterOpen = try await ProcessProbe.settledOpenDescriptors()
        XCTAssertEqual(afterOpen, before, "descriptors leaked over 10 rounds that left the connection open")
    }

    func testAgainstNghttpd() async throws {
        let htdocs = try makeTestDirectory("http2-htdocs")
        try "hello from nghttpd\n".write(toFile: htdocs + "/hello.txt", atomically: true, encoding: .utf8)
        let port = try PeerProcess.freePort()
        let nghttpd = try PeerProcess.start(
            "nghttpd", ["-a", "127.0.0.1", "-d", htdocs, String(port), pki.serverKeyPath, pki.serverCertPath])
        defer { nghttpd.terminate() }
        var connection: HTTP2ClientConnection?
        for _ in 0..<200 where connection == nil {
            connection = try? await self.client.connect(host: "localhost", port: port, tls: trustTestCA)
            if connection == nil { try await Task.sleep(for: .milliseconds(25)) }
        }
        let client = try XCTUnwrap(connection, "nghttpd never accepted a connection")
        let response = try await client.send(HTTP2ClientRequest(path: "/hello.txt"))
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(String(decoding: response.body, as: UTF8.self), "hello from nghttpd\n")
        let missing = try await client.send(HTTP2ClientRequest(path: "/missing"))
        XCTAssertEqual(missing.status, 404)
        let rtt = try await client.ping()
        XCTAssertGreaterThan(rtt, .zero)
        await client.close()
    }
}
