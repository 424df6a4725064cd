import COpenSSL

/// SHA-256 through OpenSSL's one-shot `EVP_Digest`, and lowercase hex for showing one.
enum SHA256Digest {
    /// The 32-byte SHA-256 of `bytes`.
    static func hash(_ bytes: [UInt8]) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let ok = bytes.withUnsafeBufferPointer { input in
            digest.withUnsafeMutableBufferPointer { output in
                EVP_Digest(input.baseAddress, input.count, output.baseAddress, &length, EVP_sha256(), nil)
            }
        }
        // EVP_Digest fails only without memory or digest: neither happens with SHA-256 in a running process.
        precondition(ok == 1, "OpenSSL SHA-256 failed: \(OpenSSLErrorQueue.drain())")
        return Array(digest.prefix(Int(length)))
    }

    /// `bytes` as lowercase hex, two digits a byte.
    static func hex(_ bytes: [UInt8]) -> String {
        let digits: [UInt8] = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
