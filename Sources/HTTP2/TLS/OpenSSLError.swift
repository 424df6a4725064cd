import COpenSSL

/// Drains OpenSSL's thread-local error queue into one readable string (empty when there is none).
func drainOpenSSLErrors() -> String {
    var messages: [String] = []
    while true {
        let code = ERR_get_error()
        if code == 0 { break }
        var buffer = [CChar](repeating: 0, count: 256)
        ERR_error_string_n(code, &buffer, buffer.count)
        messages.append(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }
    return messages.joined(separator: "; ")
}

/// Parses every certificate in `pem`, in order. The caller owns (must free) the returned X509s.
func readCertificates(pem: String, what: String) throws(HTTP2Error) -> [OpaquePointer] {
    var certificates: [OpaquePointer] = []
    let bytes = Array(pem.utf8)
    let bio: OpaquePointer? = bytes.withUnsafeBytes { BIO_new_mem_buf($0.baseAddress, Int32($0.count)) }
    guard let bio else { throw .tls("out of memory reading \(what)") }
    defer { BIO_free(bio) }
    // BIO_new_mem_buf does not copy; `bytes` stays alive for this function's duration.
    withExtendedLifetime(bytes) {
        while let cert = PEM_read_bio_X509(bio, nil, nil, nil) {
            certificates.append(cert)
        }
    }
    ERR_clear_error()  // the last read fails with "no start line" at end of input
    guard !certificates.isEmpty else {
        throw .tls("\(what) contains no PEM certificate (expected -----BEGIN CERTIFICATE-----)")
    }
    return certificates
}

/// Parses a PEM private key. The caller owns (must free) the returned EVP_PKEY.
func readPrivateKey(pem: String, what: String) throws(HTTP2Error) -> OpaquePointer {
    let bytes = Array(pem.utf8)
    let bio: OpaquePointer? = bytes.withUnsafeBytes { BIO_new_mem_buf($0.baseAddress, Int32($0.count)) }
    guard let bio else { throw .tls("out of memory reading \(what)") }
    defer { BIO_free(bio) }
    let key = withExtendedLifetime(bytes) { PEM_read_bio_PrivateKey(bio, nil, nil, nil) }
    guard let key else {
        throw .tls("\(what) is not a readable unencrypted PEM private key: \(drainOpenSSLErrors())")
    }
    return key
}

/// The DER bytes of the peer's certificate on `ssl`, if it sent one.
func peerCertificateDER(ssl: OpaquePointer) -> [UInt8]? {
    guard let cert = SSL_get1_peer_certificate(ssl) else { return nil }
    defer { X509_free(cert) }
    var out: UnsafeMutablePointer<UInt8>?
    let length = copenssl_X509_to_DER(cert, &out)
    guard length > 0, let out else { return nil }
    defer { copenssl_OPENSSL_free(out) }
    return Array(UnsafeBufferPointer(start: out, count: Int(length)))
}

/// The ALPN protocol selected on `ssl`, if any.
func selectedALPN(ssl: OpaquePointer) -> String? {
    var data: UnsafePointer<UInt8>?
    var length: UInt32 = 0
    SSL_get0_alpn_selected(ssl, &data, &length)
    guard let data, length > 0 else { return nil }
    return String(decoding: UnsafeBufferPointer(start: data, count: Int(length)), as: UTF8.self)
}
