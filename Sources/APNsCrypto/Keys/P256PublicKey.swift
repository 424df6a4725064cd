import COpenSSL

/// An EC P-256 public key: what verifies a provider token's ES256 signature.
public struct P256PublicKey: Sendable, Equatable {
    let key: EVPKey

    /// Loads a SubjectPublicKeyInfo PEM (`-----BEGIN PUBLIC KEY-----`).
    public init(pemRepresentation: String) throws(CryptoError) {
        let pointer = MemoryBIO.reading(pemRepresentation) { bio in
            PEM_read_bio_PUBKEY(bio, nil, nil, nil)
        }
        guard let pointer else {
            throw .invalidPEM(expected: "EC public key (PUBLIC KEY)", openSSL: OpenSSLErrorQueue.drain())
        }
        let key = EVPKey(taking: pointer)
        try key.requireP256()
        self.key = key
    }

    /// Loads a SubjectPublicKeyInfo DER.
    public init(derRepresentation: [UInt8]) throws(CryptoError) {
        let pointer = derRepresentation.withUnsafeBufferPointer { buffer -> OpaquePointer? in
            var cursor = buffer.baseAddress
            return d2i_PUBKEY(nil, &cursor, buffer.count)
        }
        guard let pointer else {
            throw .invalidDER(expected: "SubjectPublicKeyInfo", openSSL: OpenSSLErrorQueue.drain())
        }
        let key = EVPKey(taking: pointer)
        try key.requireP256()
        self.key = key
    }

    /// The key as SubjectPublicKeyInfo PEM (`-----BEGIN PUBLIC KEY-----`).
    public var pemRepresentation: String {
        key.pem { bio, pkey in PEM_write_bio_PUBKEY(bio, pkey) }
    }

    /// The key as SubjectPublicKeyInfo DER; equal keys have equal bytes.
    public var derRepresentation: [UInt8] {
        guard let der = key.subjectPublicKeyInfoDER else {
            fatalError("OpenSSL could not encode a public key: \(OpenSSLErrorQueue.drain())")
        }
        return der
    }

    /// Checks an ES256 signature over `data`.
    ///
    /// Accepts both the JWS form (raw R‖S, 64 bytes, what client libraries send) and the DER
    /// `ECDSA-Sig-Value` form (what Apple's illustrative token appears to carry). Anything else,
    /// including non-canonical DER, is invalid. Never throws: a bad signature is just `false`.
    public func isValidSignature(_ signature: [UInt8], for data: [UInt8]) -> Bool {
        if signature.count == ECDSASignature.rawLength, let der = ECDSASignature.der(fromRaw: signature),
           verify(der: der, data: data) {
            return true
        }
        // A 64-byte value can also be DER (R and S short enough), so fall through for those too.
        guard signature.first == 0x30 else { return false }
        return verify(der: signature, data: data)
    }

    private func verify(der: [UInt8], data: [UInt8]) -> Bool {
        guard let context = EVP_MD_CTX_new() else {
            OpenSSLErrorQueue.clear()
            return false
        }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestVerifyInit(context, nil, EVP_sha256(), nil, key.pointer) == 1 else {
            OpenSSLErrorQueue.clear()
            return false
        }
        let result = der.withUnsafeBufferPointer { signature in
            data.withUnsafeBufferPointer { input in
                EVP_DigestVerify(context, signature.baseAddress, signature.count, input.baseAddress, input.count)
            }
        }
        if result != 1 { OpenSSLErrorQueue.clear() }
        return result == 1
    }

    /// Two public keys are equal when they are the same point on the curve.
    public static func == (lhs: P256PublicKey, rhs: P256PublicKey) -> Bool {
        lhs.key === rhs.key || EVP_PKEY_eq(lhs.key.pointer, rhs.key.pointer) == 1
    }
}
