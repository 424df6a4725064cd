import COpenSSL
@testable import HTTP2
import HTTP2TestSupport
import XCTest

/// The embedded connection runs the server's TLS too: an OpenSSL client in memory (its own memory BIOs) does the
/// handshake with ALPN h2 against ``EmbeddedHTTP2Connection`` byte by byte, then speaks HTTP/2 inside it.
final class EmbeddedTLSTests: ServerTestCase {
    /// A TLS client whose ciphertext goes to and comes from `connection` directly.
    private final class MemoryTLSClient {
        let ctx: OpaquePointer
        let ssl: OpaquePointer
        let input: OpaquePointer    // what the server wrote, for the client to read
        let output: OpaquePointer   // what the client wrote, for the server
        let connection: EmbeddedHTTP2Connection

        init(connection: EmbeddedHTTP2Connection) {
            self.connection = connection
            ctx = SSL_CTX_new(TLS_client_method())!
            SSL_CTX_set_verify(ctx, SSL_VERIFY_NONE, nil)
            ssl = SSL_new(ctx)!
            input = BIO_new(BIO_s_mem())!
            output = BIO_new(BIO_s_mem())!
            _ = copenssl_BIO_set_mem_eof_return(input, -1)   // empty means "wait for more", not end of stream
            SSL_set_bio(ssl, input, output)   // the SSL owns both BIOs now
            SSL_set_connect_state(ssl)
            let alpn: [UInt8] = [2, UInt8(ascii: "h"), UInt8(ascii: "2")]
            _ = SSL_set_alpn_protos(ssl, alpn, UInt32(alpn.count))
        }

        deinit {
            SSL_free(ssl)
            SSL_CTX_free(ctx)
        }

        /// Moves the client's pending ciphertext to the server and the server's answer back.
        func exchange() {
            var chunk = [UInt8](repeating: 0, count: 16_384)
            var outgoing: [UInt8] = []
            while true {
                let n = BIO_read(output, &chunk, Int32(chunk.count))
                if n <= 0 { break }
                outgoing += chunk[0..<Int(n)]
            }
            if !outgoing.isEmpty { connection.writeInbound(outgoing) }
            let answer = connection.readOutbound()
            if !answer.isEmpty { _ = answer.withUnsafeBytes { BIO_write(input, $0.baseAddress, Int32($0.count)) } }
        }

        /// Completes the handshake; whether it succeeded.
        func handshake() -> Bool {
            for _ in 0..<20 {
                let rc = SSL_do_handshake(ssl)
                let error = SSL_get_error(ssl, rc)   // before the exchange, which resets the BIOs' retry flags
                exchange()
                if rc == 1 { return true }
                if error != SSL_ERROR_WANT_READ && error != SSL_ERROR_WANT_WRITE { return false }
            }
            return false
        }

        var alpn: String? {
            var data: UnsafePointer<UInt8>?
            var length: UInt32 = 0
            SSL_get0_alpn_selected(ssl, &data, &length)
            guard let data, length > 0 else { return nil }
            return String(decoding: UnsafeBufferPointer(start: data, count: Int(length)), as: UTF8.self)
        }

        func send(_ plaintext: [UInt8]) {
            _ = plaintext.withUnsafeBytes { SSL_write(ssl, $0.baseAddress, Int32($0.count)) }
            exchange()
        }

        /// Everything the server has sent, decrypted.
        func receive() -> [UInt8] {
            exchange()
            var plaintext: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 16_384)
            while true {
                let n = SSL_read(ssl, &chunk, Int32(chunk.count))
                if n <= 0 { break }
                plaintext += chunk[0..<Int(n)]
            }
            return plaintext
        }
    }

    func testHandshakeAndRequestOverTLSInMemory() throws {
        var configuration = HTTP2ServerConfiguration()
        configuration.tls = pki.serverTLS()
        let handler = TestHandler()
        let connection = try EmbeddedHTTP2Connection(configuration: configuration, handler: handler)
        let client = MemoryTLSClient(connection: connection)
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
