import COpenSSL

/// An OpenSSL `SSL_CTX` configured for the server: certificate, key, ALPN `h2`, optional client-cert request.
// @unchecked Sendable: the SSL_CTX is fully configured in init and only read afterwards (SSL_new is
// thread-safe on a configured context); the pointer never leaves this type except through `makeSSL()`.
final class TLSServerContext: @unchecked Sendable {
    private let context: OpaquePointer

    init(configuration: TLSConfiguration) throws(HTTP2Error) {
        let context = try makeSSLContext(method: TLS_server_method(), minimumVersion: configuration.minimumVersion)
        self.context = context

        let chainPEM = try configuration.certificateChain.load(what: "certificate chain")
        let certificates = try readCertificates(pem: chainPEM, what: "certificate chain")
        guard SSL_CTX_use_certificate(context, certificates[0]) == 1 else {
            certificates.forEach { X509_free($0) }
            throw .tls("the server certificate was rejected: \(drainOpenSSLErrors())")
        }
        X509_free(certificates[0])
        for intermediate in certificates.dropFirst() {
            // add0 takes ownership on success.
            if copenssl_SSL_CTX_add0_chain_cert(context, intermediate) != 1 { X509_free(intermediate) }
        }
        let keyPEM = try configuration.privateKey.load(what: "private key")
        let key = try readPrivateKey(pem: keyPEM, what: "private key")
        defer { EVP_PKEY_free(key) }
        guard SSL_CTX_use_PrivateKey(context, key) == 1, SSL_CTX_check_private_key(context) == 1 else {
            throw .tls("the private key does not match the server certificate: \(drainOpenSSLErrors())")
        }

        if configuration.clientCA != nil || configuration.requestClientCertificate {
            if let clientCA = configuration.clientCA {
                let caPEM = try clientCA.load(what: "client CA")
                for ca in try readCertificates(pem: caPEM, what: "client CA") {
                    _ = SSL_CTX_add_client_CA(context, ca)
                    X509_free(ca)
                }
            }
            // Ask for a certificate, accept whatever comes (or nothing): trust is the handler's call.
            SSL_CTX_set_verify(context, SSL_VERIFY_PEER, { _, _ in 1 })
            var sessionContext: [UInt8] = Array("mockapns-http2".utf8)
            _ = SSL_CTX_set_session_id_context(context, &sessionContext, UInt32(sessionContext.count))
        }

        SSL_CTX_set_alpn_select_cb(context, { _, out, outLength, input, inputLength, _ in
            // Pick "h2" if offered; otherwise no ALPN (the connection still speaks HTTP/2).
            guard let input, let out, let outLength else { return copenssl_SSL_TLSEXT_ERR_NOACK() }
            var index = 0
            let total = Int(inputLength)
            while index < total {
                let length = Int(input[index])
                let start = index + 1
                if start + length > total { break }
                if length == 2 && input[start] == UInt8(ascii: "h") && input[start + 1] == UInt8(ascii: "2") {
                    out.pointee = input + start
                    outLength.pointee = 2
                    return copenssl_SSL_TLSEXT_ERR_OK()
                }
                index = start + length
            }
            return copenssl_SSL_TLSEXT_ERR_NOACK()
        }, nil)
        ERR_clear_error()
    }

    deinit { SSL_CTX_free(context) }

    /// A new server-side SSL object using memory BIOs (the connection moves bytes itself).
    /// Returns (ssl, readBIO, writeBIO); the SSL owns both BIOs.
    func makeSSL() -> (ssl: OpaquePointer, input: OpaquePointer, output: OpaquePointer)? {
        guard let made = makeMemoryBIOSSL(context: context) else { return nil }
        SSL_set_accept_state(made.ssl)
        return made
    }
}
