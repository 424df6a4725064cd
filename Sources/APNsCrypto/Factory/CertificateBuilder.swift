import COpenSSL

/// Assembles and signs one X.509 certificate with OpenSSL. Every C object is freed before return.
enum CertificateBuilder {
    /// Subject name entries, in order, e.g. `[("UID", "com.example.app"), ("CN", "…")]`.
    typealias Name = [(field: String, value: String)]

    /// A signed certificate for `subjectKey`, signed by `issuer` (or self-signed when nil).
    static func build(
        subject: Name,
        subjectKey: P256PrivateKey,
        profile: CertificateProfile,
        issuer: IssuedCertificate?,
        notBefore: Int64,
        notAfter: Int64
    ) throws(CryptoError) -> X509Handle {
        guard notBefore < notAfter else {
            throw .invalidArgument("the validity must end after it starts (\(notBefore) ≥ \(notAfter))")
        }
        let config = try profile.configText()
        guard let pointer = X509_new() else { throw failure("create a certificate") }
        defer { X509_free(pointer) }

        guard X509_set_version(pointer, 2) == 1 else { throw failure("set the certificate version") }
        try setRandomSerial(pointer)
        guard ASN1_TIME_set(X509_getm_notBefore(pointer), time_t(notBefore)) != nil,
              ASN1_TIME_set(X509_getm_notAfter(pointer), time_t(notAfter)) != nil else {
            throw failure("set the validity period")
        }
        try setSubject(pointer, subject)
        let issuerName = issuer.map { X509_get_subject_name($0.handle.pointer) } ?? X509_get_subject_name(pointer)
        guard X509_set_issuer_name(pointer, issuerName) == 1 else { throw failure("set the issuer name") }
        guard X509_set_pubkey(pointer, subjectKey.key.pointer) == 1 else { throw failure("set the public key") }
        try addExtensions(pointer, config: config, issuer: issuer?.handle.pointer ?? pointer)
        let signingKey = issuer?.privateKey ?? subjectKey
        guard X509_sign(pointer, signingKey.key.pointer, EVP_sha256()) > 0 else { throw failure("sign the certificate") }
        // Hand out a fresh decode of the signed bytes, so nothing cached during assembly survives.
        guard let der = DEREncoding.encode({ i2d_X509(pointer, $0) }) else { throw failure("encode the certificate") }
        return try X509Handle.decode(der: der)
    }

    private static func setRandomSerial(_ certificate: OpaquePointer) throws(CryptoError) {
        var bytes = [UInt8](repeating: 0, count: 16)
        guard RAND_bytes(&bytes, Int32(bytes.count)) == 1 else { throw failure("draw a random serial number") }
        bytes[0] &= 0x7F
        bytes[0] |= 0x01
        guard let number = BN_bin2bn(bytes, Int32(bytes.count), nil) else { throw failure("make a serial number") }
        defer { BN_free(number) }
        guard BN_to_ASN1_INTEGER(number, X509_get_serialNumber(certificate)) != nil else {
            throw failure("set the serial number")
        }
    }

    private static func setSubject(_ certificate: OpaquePointer, _ subject: Name) throws(CryptoError) {
        guard let name = X509_NAME_new() else { throw failure("create a subject name") }
        defer { X509_NAME_free(name) }
        for entry in subject {
            let added = Array(entry.value.utf8).withUnsafeBufferPointer { value in
                X509_NAME_add_entry_by_txt(name, entry.field, MBSTRING_UTF8, value.baseAddress, Int32(value.count), -1, 0)
            }
            guard added == 1 else { throw failure("add \(entry.field)=\(entry.value) to the subject") }
        }
        guard X509_set_subject_name(certificate, name) == 1 else { throw failure("set the subject name") }
    }

    private static func addExtensions(_ certificate: OpaquePointer, config: String, issuer: OpaquePointer) throws(CryptoError) {
        guard let conf = NCONF_new(nil) else { throw failure("create an extension config") }
        defer { NCONF_free(conf) }
        var errorLine = 0
        let loaded = MemoryBIO.reading(config) { bio in NCONF_load_bio(conf, bio, &errorLine) } ?? 0
        guard loaded == 1 else { throw failure("read the extension config (line \(errorLine))") }
        var context = X509V3_CTX()
        X509V3_set_ctx(&context, issuer, certificate, nil, nil, 0)
        X509V3_set_nconf(&context, conf)
        guard X509V3_EXT_add_nconf(conf, &context, CertificateProfile.section, certificate) == 1 else {
            throw failure("add the certificate extensions")
        }
    }

    private static func failure(_ step: String) -> CryptoError {
        .operationFailed(step: step, openSSL: OpenSSLErrorQueue.drain())
    }
}
