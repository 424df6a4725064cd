@testable import HTTP2
import HTTP2TestSupport
import NIOCore
import NIOEmbedded
import Support
import PeerSupport
import XCTest

/// The SwiftNIO driver on an `EmbeddedChannel`, without a socket: what the channel hands it before a client's
/// connection has attached.
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
}
