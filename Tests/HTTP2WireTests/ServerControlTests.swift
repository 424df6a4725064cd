import Foundation
import HTTP2
import HTTP2TestSupport
import PeerSupport
import XCTest

/// SETTINGS changes, GOAWAY, RST_STREAM, idle timeout and graceful shutdown, as a real peer sees them.
final class ServerControlTests: ServerTestCase {
    func testRuntimeSetMaxConcurrentStreamsSendsNewSettings() async throws {
        let (server, _) = try await startServer { $0.maxConcurrentStreams = 1000 }
        let result = try PythonH2.run(mode: "settings", port: server.localPort, ca: pki.caPath)
        XCTAssertEqual(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "status=200 mcs=1000,7", result.stderr)
        try assertStillServes(server)
    }

    func testInitialMaxConcurrentStreamsPerConnection() async throws {
        let (server, _) = try await startServer { configuration in
            configuration.initialMaxConcurrentStreams = { info in info.isTLS ? 1 : 50 }
        }
        let result = try PythonH2.run(mode: "settings", port: server.localPort, ca: pki.caPath)
        XCTAssertEqual(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "status=200 mcs=1,7", result.stderr)
    }

    func testGoAwayWithDebugDataThenClose() async throws {
        let (server, handler) = try await startServer()
        let result = try PythonH2.run(mode: "goaway", port: server.localPort, ca: pki.caPath)
        XCTAssertEqual(
            result.stdout.trimmingCharacters(in: .whitespacesAndNewlines),
            #"status=403 body={"reason":"Forbidden"} goaway=0 data={"reason":"Shutdown"} closed=True"#, result.stderr)
        XCTAssertTrue(Poll.blockingUntil { handler.closed.count == 1 })
        try assertStillServes(server)
    }

    func testResetSendsRSTStream() async throws {
        let (server, _) = try await startServer()
        let result = try curl(server, path: "/reset")
        XCTAssertNotEqual(result.status, 0, "curl should report the reset stream")
        XCTAssertTrue(result.stderr.contains("CANCEL") || result.stderr.contains("0x8") || result.stderr.contains("stream"),
                      result.stderr)
        try assertStillServes(server)
    }

    func testIdleConnectionsAreClosedWithGoAway() async throws {
        let (server, handler) = try await startServer { $0.idleTimeout = .milliseconds(300) }
        let result = try PythonH2.run(mode: "idle", port: server.localPort, ca: pki.caPath)
        XCTAssertEqual(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines),
                       "status=200 goaway=0 data=IdleTimeout closed=True", result.stderr)
        XCTAssertTrue(Poll.blockingUntil { handler.closed.count == 1 })
        try assertStillServes(server)
    }

    func testGracefulShutdownDrainsInFlightStreams() async throws {
        let handler = TestHandler()
        var configuration = HTTP2ServerConfiguration(port: 0, loopCount: 2)
        configuration.tls = pki.serverTLS()
        let server = try HTTP2Server(configuration: configuration, handler: handler)
        try await server.start()
        // nghttp (not Python h2, which treats any GOAWAY as the end of everything).
        let client = try PeerProcess.start("nghttp", ["-nv", "https://localhost:\(server.localPort)/delay"])
        defer { client.terminate() }
        XCTAssertTrue(Poll.blockingUntil { handler.requests.count == 1 }, "the delayed request never arrived")
        await server.shutdown(gracePeriod: .seconds(10))
        let result = client.wait(timeout: 30)
        // The in-flight request was answered, and the client was told to go away with NO_ERROR.
        XCTAssertTrue(result.stdout.contains("recv GOAWAY"), result.stdout)
        XCTAssertTrue(result.stdout.contains("error_code=NO_ERROR"), result.stdout)
        XCTAssertTrue(result.stdout.contains(":status: 200"), result.stdout)
        XCTAssertTrue(result.stdout.contains("x-delayed: 1"), result.stdout)
        XCTAssertEqual(server.openConnectionCount, 0)
        XCTAssertEqual(handler.closed.count, 1)
    }

    func testConnectionEventsReachTheHandler() async throws {
        let (server, handler) = try await startServer()
        try assertStillServes(server)
        XCTAssertTrue(Poll.blockingUntil { handler.closed.count == 1 })
        let opened = try XCTUnwrap(handler.opened.first)
        XCTAssertEqual(opened.id, handler.closed.first?.id)
        XCTAssertEqual(opened.id, handler.requests.first?.connectionID)
        XCTAssertEqual(opened.alpn, "h2")
        XCTAssertTrue(opened.isTLS)
    }

    func testServerAndHandlerAreReleasedAfterShutdown() async throws {
        weak var weakServer: HTTP2Server?
        weak var weakHandler: TestHandler?
        try await {
            let handler = TestHandler()
            var configuration = HTTP2ServerConfiguration(port: 0, loopCount: 2)
            configuration.tls = pki.serverTLS()
            let server = try HTTP2Server(configuration: configuration, handler: handler)
            try await server.start()
            let result = try curl(server)
            XCTAssertTrue(result.stdout.hasPrefix("HTTP/2 200"), result.stdout)
            await server.shutdown(gracePeriod: .seconds(1))
            weakServer = server
            weakHandler = handler
        }()
        XCTAssertNil(weakServer, "the server leaked")
        XCTAssertNil(weakHandler, "the handler leaked")
    }

    /// A shutdown that races a start, whichever wins, leaves nothing open: the start binds outside the server's lock,
    /// and when the shutdown came meanwhile it closes what it bound (the listener, and the loop it made).
    func testAShutdownRacingAStartLeavesNothingOpen() async throws {
        func round() async throws {
            let racing = try HTTP2Server(configuration: HTTP2ServerConfiguration(host: "127.0.0.1", port: 0, loopCount: 1),
                                         handler: TestHandler())
            let start = Task.detached { try await racing.start() }
            await racing.shutdown(gracePeriod: .zero)
            do {
                try await start.value
            } catch HTTP2Error.alreadyStarted {
                // The shutdown came first.
            }
            XCTAssertEqual(racing.localPorts, [])
        }
        try await round()   // warm up
        let before = try await ProcessProbe.settledOpenDescriptors()
        for _ in 0..<20 { try await round() }
        let after = try await ProcessProbe.settledOpenDescriptors()
        XCTAssertEqual(after, before, "starts raced by their shutdowns left descriptors open")
    }
}
