import COpenSSL

/// Bridges Swift strings and bytes to OpenSSL memory BIOs. The BIO never outlives the call.
enum MemoryBIO {
    /// Runs `body` with a read-only BIO over `text`'s UTF-8 bytes.
    static func reading<Result>(_ text: String, _ body: (OpaquePointer) -> Result?) -> Result? {
        var bytes = Array(text.utf8)
        return bytes.withUnsafeMutableBytes { raw -> Result? in
            guard let bio = BIO_new_mem_buf(raw.baseAddress, Int32(raw.count)) else { return nil }
            defer { BIO_free(bio) }
            return body(bio)
        }
    }

    /// Runs `write` against an empty memory BIO and returns what it wrote as text, or nil if it failed.
    static func writingText(_ write: (OpaquePointer) -> Bool) -> String? {
        guard let bio = BIO_new(BIO_s_mem()) else { return nil }
        defer { BIO_free(bio) }
        guard write(bio) else { return nil }
        var data: UnsafeMutablePointer<CChar>?
        let length = copenssl_BIO_get_mem_data(bio, &data)
        guard length >= 0, let data else { return length == 0 ? "" : nil }
        return data.withMemoryRebound(to: UInt8.self, capacity: length) {
            String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
        }
    }
}
