import COpenSSL

/// HMAC-SHA256 through OpenSSL's one-shot `HMAC()`: how a webhook body is signed (`X-MockAPNs-Signature`), so a
/// receiver holding the shared secret can check where it came from.
public enum HMACSHA256 {
    /// The 32-byte HMAC-SHA256 of `message` under `key`.
    public static func authenticationCode(key: [UInt8], message: [UInt8]) -> [UInt8] {
        var code = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let produced = key.withUnsafeBufferPointer { keyBytes in
            message.withUnsafeBufferPointer { messageBytes in
                code.withUnsafeMutableBufferPointer { out in
                    HMAC(EVP_sha256(), keyBytes.baseAddress, Int32(keyBytes.count), messageBytes.baseAddress, messageBytes.count,
                         out.baseAddress, &length)
                }
            }
        }
        // HMAC() fails only without memory or digest: neither happens with SHA-256 in a running process.
        precondition(produced != nil, "OpenSSL HMAC-SHA256 failed")
        return Array(code.prefix(Int(length)))
    }

    /// The code as lowercase hex, as the signature header carries it.
    public static func hex(key: [UInt8], message: [UInt8]) -> String {
        let digits: [UInt8] = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(64)
        for byte in authenticationCode(key: key, message: message) {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
