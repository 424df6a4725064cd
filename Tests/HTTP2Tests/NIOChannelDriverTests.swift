@testable import HTTP2
import HTTP2TestSupport
import NIOCore
import NIOEmbedded
import Support
import PeerSupport
import XCTest

/// The SwiftNIO driver on an `EmbeddedChannel`, without a socket: what the channel hands it before a client's
/// connection has attached, and what NIO hands it from inside a write.
final class NIOChannelDriverTests: LeakCheckedTestCase {
    /// An h2c server sends its SETTINGS as soon as it accepts, and on a busy machine they can be read before the
    /// client's connection attaches to its channel: they wait for the connection, which then completes its connect
    /// on them (dropped, it would never see the server's preface).
    func testBytesReadBeforeAClientAttachesReachItsConnection() throws {
        let channel = EmbeddedChannel()
        let loop = NIOConnectionLoop(nio: channel.embeddedEventLoop)
        let driver = NIOChannelDriver(loop: loop, role: .client)
        try channel.pipeline.syncOperations.addHandler(driver)
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 2197)).wait()
        try channel.writeInbound(ByteBuffer(bytes: [0, 0, 0, 4, 0, 0, 0, 0, 0]))   // the server's SETTINGS, empty

        let result = Locked<Result<Void, HTTP2ClientError>?>(nil)
        let connection = ClientConnection(driver: driver, host: "127.0.0.1", port: 2197, loop: loop, tls: nil,
                                          configuration: HTTP2ClientConfiguration()) { outcome in result.withLock { $0 = outcome } }
        connection.start()
        connection.connectCompleted(error: nil)
        channel.embeddedEventLoop.run()

        let outcome = try XCTUnwrap(result.withLock { $0 }, "the connect never completed: the server's SETTINGS were lost")
        XCTAssertNoThrow(try outcome.get())
        let preface = try XCTUnwrap(channel.readOutbound(as: ByteBuffer.self), "the client wrote nothing")
        XCTAssertEqual(preface.getString(at: preface.readerIndex, length: 24), "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n")
        connection.close()
        _ = try? channel.finish()
    }

    /// When a write fails, NIO reads what is left on the socket from inside `writeAndFlush`, so the driver's
    /// `channelRead` runs while the core is handing over its TLS output. A close_notify read then closed the
    /// connection there and freed the TLS buffers the core was still using (a segmentation fault seen with node:http2
    /// clients that connect and destroy at once). The driver holds such a read until the write has returned.
    func testWhatNIOReadsInsideAWriteReachesTheConnectionAfterTheWrite() throws {
        var configuration = HTTP2ServerConfiguration()
        let tls = TestPKI.shared.serverTLS()
        configuration.tls = tls
        let handler = TestHandler()
        let server = ServerContext(configuration: configuration, handler: handler, tls: try TLSServerContext(configuration: tls))
        let channel = EmbeddedChannel()
        let loop = NIOConnectionLoop(nio: channel.embeddedEventLoop)
        let loopState = ServerLoopState(loop: loop)
        let socket = ReadsInsideFlush(loopState: loopState)
        try channel.pipeline.syncOperations.addHandler(socket)
        try channel.pipeline.syncOperations.addHandler(NIOChannelDriver(loop: loop, role: .server(server, loopState, listener: 0)))
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 2197)).wait()
        XCTAssertEqual(loopState.connections.count, 1, "channelActive opened the connection")

        let client = MemoryTLSClient(
            deliver: { bytes in
                _ = try? channel.writeInbound(ByteBuffer(bytes: bytes))
                channel.embeddedEventLoop.run()
            },
            collect: {
                var bytes: [UInt8] = []
                while let buffer = try? channel.readOutbound(as: ByteBuffer.self) { bytes += buffer.readableBytesView }
                return bytes
            })
        XCTAssertTrue(client.handshake())
        // The client's preface, whose SETTINGS the server acknowledges in its next write; inside that write, the
        // "socket" reads the client's close_notify.
        client.encrypt(H2Wire.preface + H2Wire.settings())
        let preface = client.takeCiphertext()
        client.closeNotify()
        socket.readInsideNextFlush = client.takeCiphertext()
        _ = try channel.writeInbound(ByteBuffer(bytes: preface))
        channel.embeddedEventLoop.run()

        XCTAssertEqual(socket.connectionsOpenRightAfterItsRead, 1, "the connection handled the read inside its own write")
        XCTAssertTrue(loopState.connections.isEmpty, "the close_notify closed the connection once the write had returned")
        XCTAssertEqual(handler.closed.count, 1)
        _ = try? channel.finish()
    }
}

/// The socket end of a pipeline that reads inside a flush, as NIO's `BaseSocketChannel.flushNow` does when a write
/// fails: after the first flush once `readInsideNextFlush` is set, it fires those bytes as a read.
private final class ReadsInsideFlush: ChannelOutboundHandler {
    typealias OutboundIn = ByteBuffer
    let loopState: ServerLoopState
    var readInsideNextFlush: [UInt8]?
    /// How many connections the loop had right after the read was handed on (nil until it was).
    private(set) var connectionsOpenRightAfterItsRead: Int?

    init(loopState: ServerLoopState) {
        self.loopState = loopState
    }

    func flush(context: ChannelHandlerContext) {
        context.flush()
        guard let bytes = readInsideNextFlush else { return }
        readInsideNextFlush = nil
        context.fireChannelRead(NIOAny(ByteBuffer(bytes: bytes)))
        connectionsOpenRightAfterItsRead = loopState.connections.count
    }
}
