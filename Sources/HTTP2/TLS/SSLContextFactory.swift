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
