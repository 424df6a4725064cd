import COpenSSL

/// Owns one OpenSSL `EVP_PKEY` and frees it when the last reference goes.
///
/// `@unchecked Sendable` because the key is never modified after `init`: OpenSSL 3 allows one
/// `EVP_PKEY` to be used by many threads at once for signing and verifying as long as no thread
/// changes it (openssl-threads(7)), and its reference count is atomic. Every operation creates its
/// own `EVP_MD_CTX`, so no per-operation state is shared. (An RSA key caches its Montgomery
/// contexts and blinding values on first use; OpenSSL fills those under the key's own lock.)
final class EVPKey: @unchecked Sendable {
    /// The owned `EVP_PKEY *`; never handed out of this module.
    let pointer: OpaquePointer

    /// Takes ownership of `pointer` (one reference).
    init(taking pointer: OpaquePointer) {
        self.pointer = pointer
    }

    deinit {
        EVP_PKEY_free(pointer)
    }

    /// Throws unless the key is EC on the P-256 curve.
    func requireP256() throws(CryptoError) {
        guard EVP_PKEY_is_a(pointer, "EC") == 1 else {
            let name = EVP_PKEY_get0_type_name(pointer).map { String(cString: $0) } ?? "of an unknown type"
            throw .unsupportedKey(found: "a \(name) key")
        }
        var name = [CChar](repeating: 0, count: 80)
        var length = 0
        let ok = name.withUnsafeMutableBufferPointer {
            EVP_PKEY_get_group_name(pointer, $0.baseAddress, $0.count, &length)
        }
        guard ok == 1 else {
            throw .unsupportedKey(found: "an EC key without a named curve (\(OpenSSLErrorQueue.drain()))")
        }
        let curve = String(decoding: name.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard ["prime256v1", "P-256", "secp256r1"].contains(curve) else {
            throw .unsupportedKey(found: "an EC key on curve \(curve)")
        }
    }

    /// Throws unless the key is RSA (`rsaEncryption`; an RSA-PSS-only key cannot sign PKCS#1 v1.5) with a modulus of
    /// at least `minimumBits`.
    func requireRSA(minimumBits: Int) throws(CryptoError) {
        guard EVP_PKEY_is_a(pointer, "RSA") == 1 else {
            throw .notRSAKey(found: typeDescription)
        }
        let bits = Int(EVP_PKEY_get_bits(pointer))
        guard bits >= minimumBits else {
            throw .rsaKeyTooSmall(bits: bits)
        }
    }

    /// "an EC key", "an RSA-PSS key", …: the key's type for an error sentence.
    private var typeDescription: String {
        guard let name = EVP_PKEY_get0_type_name(pointer).map({ String(cString: $0) }) else { return "of an unknown type" }
        let article = name.first.map { "AEFHILMNORSX".contains($0) } == true ? "an" : "a"
        return "\(article) \(name) key"
    }

    /// The SubjectPublicKeyInfo DER of the key (public part only).
    var subjectPublicKeyInfoDER: [UInt8]? {
        DEREncoding.encode { i2d_PUBKEY(pointer, $0) }
    }

    /// The key as PEM written by `write` (for example `PEM_write_bio_PUBKEY`).
    func pem(_ write: (OpaquePointer, OpaquePointer) -> Int32) -> String {
        let text = MemoryBIO.writingText { bio in write(bio, pointer) == 1 }
        guard let text else {
            // Writing PEM of a valid in-memory key only fails on allocation failure.
            fatalError("OpenSSL could not write a PEM key: \(OpenSSLErrorQueue.drain())")
        }
        return text
    }
}
