import COpenSSL

/// Creates the `SSL_CTX` both ends start from: the minimum protocol version, no compression or
/// renegotiation, and the write modes the non-blocking socket code relies on (partial writes, a write
/// buffer that may move between retries). Server and client add their own certificates and checks.
func makeSSLContext(method: OpaquePointer?, minimumVersion: TLSVersion) throws(HTTP2Error) -> OpaquePointer {
    guard let context = SSL_CTX_new(method) else {
        throw .tls("SSL_CTX_new failed: \(drainOpenSSLErrors())")
    }
    let minimum = minimumVersion == .tls13 ? copenssl_TLS1_3_VERSION() : copenssl_TLS1_2_VERSION()
    _ = copenssl_SSL_CTX_set_min_proto_version(context, minimum)
    _ = copenssl_SSL_CTX_set_options(
        context, copenssl_SSL_OP_ALL() | copenssl_SSL_OP_NO_COMPRESSION() | copenssl_SSL_OP_NO_RENEGOTIATION())
    _ = copenssl_SSL_CTX_set_mode(context, copenssl_SSL_MODE_ENABLE_PARTIAL_WRITE() | copenssl_SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER())
    return context
}

/// A new SSL object from `context` on two memory BIOs (the connection moves the bytes itself): returns
/// (ssl, input, output); the SSL owns both BIOs. Reads from an empty BIO say "retry", not end of file.
func makeMemoryBIOSSL(context: OpaquePointer) -> (ssl: OpaquePointer, input: OpaquePointer, output: OpaquePointer)? {
    guard let ssl = SSL_new(context) else { return nil }
    guard let input = BIO_new(BIO_s_mem()), let output = BIO_new(BIO_s_mem()) else {
        SSL_free(ssl)
        return nil
    }
    _ = copenssl_BIO_set_mem_eof_return(input, -1)
    _ = copenssl_BIO_set_mem_eof_return(output, -1)
    SSL_set_bio(ssl, input, output)
    return (ssl, input, output)
}
