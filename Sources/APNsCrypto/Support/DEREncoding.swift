import COpenSSL

/// Calls an OpenSSL `i2d_*` function twice (length, then bytes) and returns the DER it writes.
enum DEREncoding {
    /// `encode` receives the output pointer slot (nil on the sizing pass) and returns a length, < 0 on error.
    static func encode(_ encode: (UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>?) -> Int32) -> [UInt8]? {
        let length = encode(nil)
        guard length > 0 else { return nil }
        var out = [UInt8](repeating: 0, count: Int(length))
        let written = out.withUnsafeMutableBufferPointer { buffer -> Int32 in
            var cursor: UnsafeMutablePointer<UInt8>? = buffer.baseAddress
            return encode(&cursor)
        }
        guard written == length else { return nil }
        return out
    }
}
