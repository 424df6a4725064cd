import COpenSSL
import Foundation

/// An EC P-256 private key: what an APNs `.p8` file holds and what signs provider tokens (ES256).
public struct P256PrivateKey: Sendable {
    let key: EVPKey

    init(key: EVPKey) {
        self.key = key
    }

    /// Loads a PEM private key: PKCS#8 (`-----BEGIN PRIVATE KEY-----`, as in Apple's `.p8` files) or
    /// SEC1 (`-----BEGIN EC PRIVATE KEY-----`). Encrypted keys are refused rather than prompting.
    public init(pemRepresentation: String) throws(CryptoError) {
        let pointer = MemoryBIO.reading(pemRepresentation) { bio in
            PEM_read_bio_PrivateKey(bio, nil, { _, _, _, _ in 0 }, nil)
        }
        guard let pointer else {
            throw .invalidPEM(expected: "EC private key", openSSL: OpenSSLErrorQueue.drain())
        }
        let key = EVPKey(taking: pointer)
        try key.requireP256()
        self.init(key: key)
    }

    /// Loads a `.p8` (or any PEM private key accepted by `init(pemRepresentation:)`) from disk.
    public init(contentsOfFile path: String) throws(CryptoError) {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw .fileUnreadable(path: path, reason: error.localizedDescription)
        }
        try self.init(pemRepresentation: text)
    }

    /// A new random P-256 key, e.g. for tests or `mockapns certs`.
    public static func generate() -> P256PrivateKey {
        guard let pointer = copenssl_EVP_EC_gen_P256() else {
            fatalError("OpenSSL could not generate a P-256 key: \(OpenSSLErrorQueue.drain())")
        }
        return P256PrivateKey(key: EVPKey(taking: pointer))
    }

    /// The key as PKCS#8 PEM (`-----BEGIN PRIVATE KEY-----`), the format of Apple's `.p8` files.
    public var pemRepresentation: String {
        key.pem { bio, pkey in PEM_write_bio_PKCS8PrivateKey(bio, pkey, nil, nil, 0, nil, nil) }
    }

    /// The matching public key, which verifies this key's signatures.
    public var publicKey: P256PublicKey {
        guard let der = key.subjectPublicKeyInfoDER, let publicKey = try? P256PublicKey(derRepresentation: der) else {
            fatalError("OpenSSL could not export the public half of a P-256 key: \(OpenSSLErrorQueue.drain())")
        }
        return publicKey
    }

    /// Signs `data` with ECDSA P-256 / SHA-256 and returns the JWS form: raw R‖S, 64 bytes.
    public func signature(for data: [UInt8]) throws(CryptoError) -> [UInt8] {
        let der = try derSignature(for: data)
        guard let raw = ECDSASignature.raw(fromDER: der) else {
            throw .signingFailed(openSSL: "OpenSSL produced a signature that is not DER ECDSA-Sig-Value")
        }
        return raw
    }

    /// Signs `data` with ECDSA P-256 / SHA-256 and returns the DER `ECDSA-Sig-Value` form.
    public func derSignature(for data: [UInt8]) throws(CryptoError) -> [UInt8] {
        guard let context = EVP_MD_CTX_new() else {
            throw .signingFailed(openSSL: OpenSSLErrorQueue.drain())
        }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestSignInit(context, nil, EVP_sha256(), nil, key.pointer) == 1 else {
            throw .signingFailed(openSSL: OpenSSLErrorQueue.drain())
        }
        var signature = [UInt8](repeating: 0, count: ECDSASignature.maximumDERLength)
        var length = signature.count
        let ok = data.withUnsafeBufferPointer { input in
            signature.withUnsafeMutableBufferPointer { output in
                EVP_DigestSign(context, output.baseAddress, &length, input.baseAddress, input.count)
            }
        }
        guard ok == 1 else {
            throw .signingFailed(openSSL: OpenSSLErrorQueue.drain())
        }
        signature.removeSubrange(length...)
        return signature
    }
}
