import COpenSSL
import Foundation

/// An RSA private key: what a Google service-account file's `private_key` holds and what signs its OAuth grants
/// (RS256: RSASSA-PKCS1-v1_5 with SHA-256, RFC 7518 §3.3).
public struct RSAPrivateKey: Sendable {
    let key: EVPKey

    /// The modulus size of `generate()`, the size of every key Google makes for a service account.
    public static let generatedBitCount = 2048
    /// The smallest modulus RS256 allows (RFC 7518 §3.3: "a key of size 2048 bits or larger MUST be used").
    public static let minimumBitCount = 2048

    init(key: EVPKey) {
        self.key = key
    }

    /// Loads a PEM private key: PKCS#8 (`-----BEGIN PRIVATE KEY-----`, as in a service-account file's `private_key`)
    /// or PKCS#1 (`-----BEGIN RSA PRIVATE KEY-----`). Encrypted keys are refused rather than prompting; keys of
    /// another type, or under 2048 bits, are refused with a sentence saying so.
    public init(pem: String) throws(CryptoError) {
        let pointer = MemoryBIO.reading(pem) { bio in
            PEM_read_bio_PrivateKey(bio, nil, { _, _, _, _ in 0 }, nil)
        }
        guard let pointer else {
            let openSSL = OpenSSLErrorQueue.drain()
            if PEMText.hasEscapedLineBreaks(pem) { throw .escapedPEM(expected: "RSA private key") }
            throw .invalidPEM(expected: "RSA private key", openSSL: openSSL)
        }
        let key = EVPKey(taking: pointer)
        try key.requireRSA(minimumBits: Self.minimumBitCount)
        self.init(key: key)
    }

    /// Loads a PEM file accepted by `init(pem:)` from disk.
    public init(contentsOfFile path: String) throws(CryptoError) {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw .fileUnreadable(path: path, reason: error.localizedDescription)
        }
        try self.init(pem: text)
    }

    /// A new random 2048-bit key (public exponent 65537), as Google makes for a service account.
    public static func generate() throws(CryptoError) -> RSAPrivateKey {
        guard let context = EVP_PKEY_CTX_new_from_name(nil, "RSA", nil) else {
            throw .operationFailed(step: "generate an RSA key", openSSL: OpenSSLErrorQueue.drain())
        }
        defer { EVP_PKEY_CTX_free(context) }
        var pointer: OpaquePointer?
        guard EVP_PKEY_keygen_init(context) == 1,
              EVP_PKEY_CTX_set_rsa_keygen_bits(context, Int32(generatedBitCount)) == 1,
              EVP_PKEY_generate(context, &pointer) == 1, let pointer else {
            throw .operationFailed(step: "generate a \(generatedBitCount)-bit RSA key", openSSL: OpenSSLErrorQueue.drain())
        }
        return RSAPrivateKey(key: EVPKey(taking: pointer))
    }

    /// The key as PKCS#8 PEM (`-----BEGIN PRIVATE KEY-----`, 64-character lines ending in `\n`): what a service-account
    /// file's `private_key` holds.
    public func pkcs8PEM() throws(CryptoError) -> String {
        let text = MemoryBIO.writingText { bio in
            PEM_write_bio_PKCS8PrivateKey(bio, key.pointer, nil, nil, 0, nil, nil) == 1
        }
        guard let text else {
            throw .operationFailed(step: "write an RSA key as PKCS#8 PEM", openSSL: OpenSSLErrorQueue.drain())
        }
        return text
    }

    /// The matching public key, which verifies this key's signatures.
    public var publicKey: RSAPublicKey {
        guard let der = key.subjectPublicKeyInfoDER, let publicKey = try? RSAPublicKey(derRepresentation: der) else {
            fatalError("OpenSSL could not export the public half of an RSA key: \(OpenSSLErrorQueue.drain())")
        }
        return publicKey
    }

    /// Signs `bytes` with RS256 (RSASSA-PKCS1-v1_5, SHA-256) and returns the signature, as long as the modulus
    /// (256 bytes for a 2048-bit key): the third segment of a JWT, before base64url.
    public func signRS256(_ bytes: [UInt8]) throws(CryptoError) -> [UInt8] {
        guard let context = EVP_MD_CTX_new() else {
            throw .rs256SigningFailed(openSSL: OpenSSLErrorQueue.drain())
        }
        defer { EVP_MD_CTX_free(context) }
        var keyContext: OpaquePointer?
        guard EVP_DigestSignInit(context, &keyContext, EVP_sha256(), nil, key.pointer) == 1, let keyContext,
              EVP_PKEY_CTX_set_rsa_padding(keyContext, RSA_PKCS1_PADDING) == 1 else {
            throw .rs256SigningFailed(openSSL: OpenSSLErrorQueue.drain())
        }
        var signature = [UInt8](repeating: 0, count: Int(EVP_PKEY_get_size(key.pointer)))
        var length = signature.count
        let ok = bytes.withUnsafeBufferPointer { input in
            signature.withUnsafeMutableBufferPointer { output in
                EVP_DigestSign(context, output.baseAddress, &length, input.baseAddress, input.count)
            }
        }
        guard ok == 1 else {
            throw .rs256SigningFailed(openSSL: OpenSSLErrorQueue.drain())
        }
        signature.removeSubrange(length...)
        return signature
    }
}
