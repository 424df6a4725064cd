@testable import HTTP2
import HTTP2TestSupport
import XCTest

/// The embedded connection runs the server's TLS too: an OpenSSL client in memory (its own memory BIOs) does the
/// handshake with ALPN h2 against ``EmbeddedHTTP2Connection`` byte by byte, then speaks HTTP/2 inside it.
final class EmbeddedTLSTests: ServerTestCase {
    func testHandshakeAndRequestOverTLSInMemory() throws {
        var configuration = HTTP2ServerConfiguration()
        configuration.tls = pki.serverTLS()
        let handler = TestHandler()
        let connection = try EmbeddedHTTP2Connection(configuration: configuration, handler: handler)
        let client = MemoryTLSClient(deliver: { connection.writeInbound($0) }, collect: { connection.readOutbound() })
        XCTAssertTrue(client.handshake(), "the TLS handshake completes in memory")
        XCTAssertEqual(client.alpn, "h2")

        let hpack = HPACKCodec()
        let block = hpack.encode([(":method", "POST"), (":scheme", "https"), (":authority", "embedded"), (":path", "/echo")])
        client.send(H2Wire.preface + H2Wire.settings()
            + H2Wire.frame(type: H2Frame.headers, flags: H2Frame.endHeaders, stream: 1, payload: block)
            + H2Wire.data(stream: 1, Array("over tls".utf8)))
        var offset = 0
        let frames = H2Wire.frames(in: client.receive(), from: &offset)
        let headers = try XCTUnwrap(frames.first { $0.type == H2Frame.headers && $0.streamID == 1 })
        let fields = hpack.decode(headers.payload)
        XCTAssertEqual(fields.first { $0.0 == ":status" }?.1, "200")
        XCTAssertEqual(fields.first { $0.0 == "x-alpn" }?.1, "h2")
        XCTAssertEqual(frames.filter { $0.type == H2Frame.data && $0.streamID == 1 }.flatMap(\.payload), Array("over tls".utf8))
        XCTAssertEqual(handler.requests.first?.alpn, "h2")
    }

    func testAClientThatIsNotTLSIsClosedDuringTheHandshake() throws {
        var configuration = HTTP2ServerConfiguration()
        configuration.tls = pki.serverTLS()
        let connection = try EmbeddedHTTP2Connection(configuration: configuration, handler: TestHandler())
        connection.writeInbound(H2Wire.preface + H2Wire.settings())
        XCTAssertTrue(connection.isClosed, "plaintext HTTP/2 on a TLS connection fails the handshake")
    }
}
