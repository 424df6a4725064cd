import COpenSSL

/// An OpenSSL client in memory (its own memory BIOs, ALPN h2, no verification), for tests that drive a server
/// connection without a socket: its ciphertext goes out through `deliver` and the server's comes back from `collect`,
/// so the same client talks to an ``EmbeddedHTTP2Connection`` or to a driver on an `EmbeddedChannel`.
public final class MemoryTLSClient {
    private let ctx: OpaquePointer
    private let ssl: OpaquePointer
    /// What the server wrote, for the client to read.
    private let input: OpaquePointer
    /// What the client wrote, for the server.
    private let output: OpaquePointer
    private let deliver: ([UInt8]) -> Void
    private let collect: () -> [UInt8]

    /// `deliver` hands the client's ciphertext to the server; `collect` returns what the server has written since.
    public init(deliver: @escaping ([UInt8]) -> Void, collect: @escaping () -> [UInt8]) {
        self.deliver = deliver
        self.collect = collect
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

    /// The client's pending ciphertext, taken out of its output BIO.
    public func takeCiphertext() -> [UInt8] {
        var chunk = [UInt8](repeating: 0, count: 16_384)
        var outgoing: [UInt8] = []
        while true {
            let n = BIO_read(output, &chunk, Int32(chunk.count))
            if n <= 0 { break }
            outgoing += chunk[0..<Int(n)]
        }
        return outgoing
    }

    /// Moves the client's pending ciphertext to the server and the server's answer back.
    public func exchange() {
        let outgoing = takeCiphertext()
        if !outgoing.isEmpty { deliver(outgoing) }
        let answer = collect()
        if !answer.isEmpty { _ = answer.withUnsafeBytes { BIO_write(input, $0.baseAddress, Int32($0.count)) } }
    }

    /// Completes the handshake; whether it succeeded.
    public func handshake() -> Bool {
        for _ in 0..<20 {
            let rc = SSL_do_handshake(ssl)
            let error = SSL_get_error(ssl, rc)   // before the exchange, which resets the BIOs' retry flags
            exchange()
            if rc == 1 { return true }
            if error != SSL_ERROR_WANT_READ && error != SSL_ERROR_WANT_WRITE { return false }
        }
        return false
    }

    /// The protocol the server selected with ALPN.
    public var alpn: String? {
        var data: UnsafePointer<UInt8>?
        var length: UInt32 = 0
        SSL_get0_alpn_selected(ssl, &data, &length)
        guard let data, length > 0 else { return nil }
        return String(decoding: UnsafeBufferPointer(start: data, count: Int(length)), as: UTF8.self)
    }

    /// Encrypts `plaintext` and exchanges it.
    public func send(_ plaintext: [UInt8]) {
        encrypt(plaintext)
        exchange()
    }

    /// Encrypts `plaintext` into the output BIO without sending it (``takeCiphertext()`` takes it).
    public func encrypt(_ plaintext: [UInt8]) {
        _ = plaintext.withUnsafeBytes { SSL_write(ssl, $0.baseAddress, Int32($0.count)) }
    }

    /// Writes TLS's close_notify into the output BIO (the end of the client's side), without sending it.
    public func closeNotify() {
        _ = SSL_shutdown(ssl)
    }

    /// Everything the server has sent, decrypted.
    public func receive() -> [UInt8] {
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
