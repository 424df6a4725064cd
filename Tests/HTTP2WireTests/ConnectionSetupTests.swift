import HTTP2
import HTTP2TestSupport
import NIOCore
import NIOPosix
import Support
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

    func testBesideTheServersOwnTLSASetupThatOnlyLooksHandsOverBytesTheServerDecrypts() async throws {
        let counter = ByteCounter()
        let listeners = Locked<[Int]>([])
        let (server, handler) = try await startServer(tls: true) { configuration in
            configuration.connectionSetup = { channel, intake in
                listeners.withLock { $0.append(intake.listener) }
                return channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(counter)
                    try intake.serve(channel)
                }
            }
        }
        let result = try curl(server, tls: true)
        XCTAssertTrue(result.stdout.hasPrefix("HTTP/2 200"), "\(result.stdout) \(result.stderr)")
        XCTAssertEqual(handler.requests.map(\.path), ["/echo"])
        XCTAssertEqual(listeners.withLock { $0 }, [0])
        // The ClientHello and the encrypted request passed the setup's handler.
        XCTAssertGreaterThan(counter.count.load(ordering: .relaxed), 200)
    }

    /// One port, two servers: the first one's setup hands every connection to the second, which serves it on the
    /// loop it was accepted on.
    func testAConnectionAcceptedByOneServerIsServedByAnotherOnTheSameLoops() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 2)
        let other = TestHandler()
        var otherConfiguration = HTTP2ServerConfiguration(port: 0, tls: pki.serverTLS())
        otherConfiguration.eventLoopGroup = group
        let second = try HTTP2Server(configuration: otherConfiguration, handler: other)
        try await second.start()
        let (first, handler) = try await startServer(tls: false) { configuration in
            configuration.eventLoopGroup = group
            configuration.connectionSetup = { channel, _ in
                guard let intake = second.intake(on: channel.eventLoop) else {
                    return channel.eventLoop.makeFailedFuture(ChannelError.inappropriateOperationForState)
                }
                return channel.eventLoop.makeCompletedFuture { try intake.serve(channel) }
            }
        }
        // The second server's TLS and handler answer on the first one's port.
        let result = try curl(first, tls: true)
        XCTAssertTrue(result.stdout.hasPrefix("HTTP/2 200"), "\(result.stdout) \(result.stderr)")
        XCTAssertTrue(handler.requests.isEmpty)
        XCTAssertEqual(other.requests.map(\.path), ["/echo"])
        XCTAssertTrue(Poll.blockingUntil { second.openConnectionCount == 0 })
        // Not the server's loops, or not running: no intake.
        let stranger = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        XCTAssertNil(second.intake(on: stranger.next()))
        await first.shutdown(gracePeriod: .seconds(1))
        await second.shutdown(gracePeriod: .seconds(1))
        XCTAssertNil(second.intake(on: group.next()))
        try await stranger.shutdownGracefully()
        try await group.shutdownGracefully()
    }
}
