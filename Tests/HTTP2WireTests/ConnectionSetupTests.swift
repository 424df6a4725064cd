import HTTP2
import HTTP2TestSupport
import NIOCore
import PeerSupport
import Synchronization
import XCTest

/// A server whose connections are set up by the application first (`connectionSetup`), as the FCM front door ends
/// TLS itself and chooses HTTP/2 or HTTP/1.1 by ALPN: what it hands over through the intake is served as any other
/// connection, what it keeps never reaches the server.
final class ConnectionSetupTests: ServerTestCase {
    /// Counts the bytes that pass it on their way to the server.
    private final class ByteCounter: ChannelInboundHandler, Sendable {
        typealias InboundIn = ByteBuffer
        typealias InboundOut = ByteBuffer
        let count = Atomic<Int>(0)

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            count.add(unwrapInboundIn(data).readableBytes, ordering: .relaxed)
            context.fireChannelRead(data)
        }
    }

    func testAConnectionHandedOverAfterItOpenedIsServedThroughTheSetupsHandlers() async throws {
        let counter = ByteCounter()
        let setups = Atomic<Int>(0)
        let (server, handler) = try await startServer(tls: false) { configuration in
            configuration.connectionSetup = { channel, intake in
                setups.add(1, ordering: .relaxed)
                return channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(counter)
                    // Handed over after it opened, as after a TLS handshake, and holding the client's bytes meanwhile
                    // (as NIO's ALPN handler does): the server must open it all the same.
                    try channel.syncOptions?.setOption(.autoRead, value: false)
                    channel.eventLoop.assumeIsolated().scheduleTask(in: .milliseconds(20)) {
                        XCTAssertTrue(channel.isActive)
                        XCTAssertNoThrow(try intake.serve(channel))
                        XCTAssertNoThrow(try channel.syncOptions?.setOption(.autoRead, value: true))
                    }
                }
            }
        }
        let result = try curl(server, tls: false)
        XCTAssertTrue(result.stdout.hasPrefix("HTTP/2 200"), "\(result.stdout) \(result.stderr)")
        XCTAssertEqual(handler.requests.map(\.path), ["/echo"])
        XCTAssertEqual(setups.load(ordering: .relaxed), 1)
        // The client's preface and its request came through the setup's handler.
        XCTAssertGreaterThan(counter.count.load(ordering: .relaxed), 24)
        XCTAssertTrue(Poll.blockingUntil { handler.closed.count == 1 && server.openConnectionCount == 0 })
        await server.shutdown(gracePeriod: .seconds(1))
    }

    func testAConnectionTheSetupKeepsNeverReachesTheServer() async throws {
        let (server, handler) = try await startServer(tls: false) { configuration in
            configuration.connectionSetup = { channel, _ in
                channel.eventLoop.makeCompletedFuture { channel.close(promise: nil) }
            }
        }
        let result = try curl(server, tls: false)
        XCTAssertFalse(result.stdout.hasPrefix("HTTP/2"), result.stdout)
        XCTAssertTrue(handler.requests.isEmpty)
        XCTAssertTrue(handler.opened.isEmpty)
        await server.shutdown(gracePeriod: .seconds(1))
    }

    func testASetupBesideTheServersOwnTLSIsRefused() throws {
        var configuration = HTTP2ServerConfiguration(port: 0, tls: pki.serverTLS())
        configuration.connectionSetup = { channel, intake in channel.eventLoop.makeCompletedFuture { try intake.serve(channel) } }
        XCTAssertThrowsError(try HTTP2Server(configuration: configuration, handler: TestHandler())) { error in
            XCTAssertTrue("\(error)".contains("leaves TLS to it"), "\(error)")
        }
    }
}
