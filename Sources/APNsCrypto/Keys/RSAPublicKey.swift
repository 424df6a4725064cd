import COpenSSL

/// An RSA public key: what checks a service account's RS256 signatures.
///
/// Two keys are equal when their SubjectPublicKeyInfo DER is (the same modulus and exponent); `fingerprint` names a
/// key by that DER, for a map.
public struct RSAPublicKey: Sendable, Hashable {
    let key: EVPKey
    /// The key as SubjectPublicKeyInfo DER.
    public let derRepresentation: [UInt8]
    /// SHA-256 of `derRepresentation`, 64 lowercase hex digits: the same for the key however it was loaded (public
    /// key, private key or certificate), different for any other key. `openssl pkey -pubout -outform DER | sha256sum`
    /// prints the same digits.
    public let fingerprint: String

    /// The PEM blocks `init(pem:)` reads, in the words its errors use.
    private static let acceptedBlocks = "PUBLIC KEY, PRIVATE KEY, RSA PRIVATE KEY or CERTIFICATE"

    /// Loads the public key of the first block of a PEM text that holds one: a SubjectPublicKeyInfo
    /// (`-----BEGIN PUBLIC KEY-----`), a private key (`-----BEGIN PRIVATE KEY-----` or `-----BEGIN RSA PRIVATE
    /// KEY-----`, the public half derived) or an X.509 certificate (`-----BEGIN CERTIFICATE-----`, as Google publishes
    /// service-account keys). The key must be RSA, of at least 2048 bits.
    public init(pem: String) throws(CryptoError) {
        let accepted: Set = ["PUBLIC KEY", "PRIVATE KEY", "RSA PRIVATE KEY", "CERTIFICATE"]
        let labels = PEMText.labels(in: pem)
        guard let label = labels.first(where: accepted.contains) else {
            if PEMText.hasEscapedLineBreaks(pem) { throw .escapedPEM(expected: "RSA key or certificate") }
            let found = labels.isEmpty ? "there is no -----BEGIN …----- line"
                : "its blocks are " + labels.joined(separator: ", ") + "; none is " + Self.acceptedBlocks
            throw .invalidPEM(expected: "RSA key or certificate", openSSL: found)
        }
        let pointer: OpaquePointer
        switch label {
        case "PRIVATE KEY", "RSA PRIVATE KEY":
            self = try RSAPrivateKey(pem: pem).publicKey
            return
        case "CERTIFICATE":
            let handle = MemoryBIO.reading(pem) { bio in
                PEM_read_bio_X509(bio, nil, nil, nil).map(X509Handle.init(taking:))
            }
            guard let handle else {
                throw Self.unreadable(pem, expected: "certificate", openSSL: OpenSSLErrorQueue.drain())
            }
            // X509_get_pubkey adds a reference: the key outlives the certificate.
            guard let certificateKey = X509_get_pubkey(handle.pointer) else {
                throw .malformedCertificate(reason: "its public key cannot be read (\(OpenSSLErrorQueue.drain()))")
            }
            pointer = certificateKey
        default:
            guard let publicKey = MemoryBIO.reading(pem, { bio in PEM_read_bio_PUBKEY(bio, nil, nil, nil) }) else {
                throw Self.unreadable(pem, expected: "RSA public key", openSSL: OpenSSLErrorQueue.drain())
            }
            pointer = publicKey
        }
        try self.init(checking: EVPKey(taking: pointer))
    }

    /// Why OpenSSL could not read a block of `pem` (its error queue already drained into `openSSL`).
    private static func unreadable(_ pem: String, expected: String, openSSL: String) -> CryptoError {
        PEMText.hasEscapedLineBreaks(pem) ? .escapedPEM(expected: expected) : .invalidPEM(expected: expected, openSSL: openSSL)
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
        try self.init(checking: EVPKey(taking: pointer))
    }

    private init(checking key: EVPKey) throws(CryptoError) {
        try key.requireRSA(minimumBits: RSAPrivateKey.minimumBitCount)
        guard let der = key.subjectPublicKeyInfoDER else {
            throw .operationFailed(step: "encode an RSA public key as DER", openSSL: OpenSSLErrorQueue.drain())
        }
        self.key = key
        self.derRepresentation = der
        self.fingerprint = SHA256Digest.hex(SHA256Digest.hash(der))
    }

    /// The modulus size in bits (2048 for a service account's key).
    public var bitCount: Int {
        Int(EVP_PKEY_get_bits(key.pointer))
    }

    /// The key as SubjectPublicKeyInfo PEM (`-----BEGIN PUBLIC KEY-----`, lines ending in `\n`).
    public func spkiPEM() throws(CryptoError) -> String {
        guard let text = MemoryBIO.writingText({ bio in PEM_write_bio_PUBKEY(bio, key.pointer) == 1 }) else {
            throw .operationFailed(step: "write an RSA public key as PEM", openSSL: OpenSSLErrorQueue.drain())
        }
        return text
    }

    /// True when `signature` is an RS256 signature (RSASSA-PKCS1-v1_5, SHA-256) of `signedBytes` by this key.
    ///
    /// The signature must be exactly as long as the modulus (RFC 8017 §8.2.2 step 1; 256 bytes for 2048 bits): one
    /// with its leading zero bytes dropped is invalid here, as at Google. Never throws: a bad signature is `false`.
    public func verifyRS256(signature: [UInt8], signedBytes: [UInt8]) -> Bool {
        guard signature.count == Int(EVP_PKEY_get_size(key.pointer)) else { return false }
        guard let context = EVP_MD_CTX_new() else {
            OpenSSLErrorQueue.clear()
            return false
        }
        defer { EVP_MD_CTX_free(context) }
        var keyContext: OpaquePointer?
        guard EVP_DigestVerifyInit(context, &keyContext, EVP_sha256(), nil, key.pointer) == 1, let keyContext,
              EVP_PKEY_CTX_set_rsa_padding(keyContext, RSA_PKCS1_PADDING) == 1 else {
            OpenSSLErrorQueue.clear()
            return false
        }
        let result = signature.withUnsafeBufferPointer { signature in
            signedBytes.withUnsafeBufferPointer { input in
                EVP_DigestVerify(context, signature.baseAddress, signature.count, input.baseAddress, input.count)
            }
        }
        if result != 1 { OpenSSLErrorQueue.clear() }
        return result == 1
    }

    /// Two public keys are equal when they have the same modulus and exponent.
    public static func == (lhs: RSAPublicKey, rhs: RSAPublicKey) -> Bool {
        lhs.derRepresentation == rhs.derRepresentation
    }

    /// Hashes the SubjectPublicKeyInfo DER, as `==` compares it.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(derRepresentation)
    }
}
