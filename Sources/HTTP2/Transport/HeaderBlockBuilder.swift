import CNghttp2

/// A header block handed to nghttp2 — a response's `:status` and fields, or a request's pseudo-header fields and
/// fields: every name and value laid out in one buffer and described by an `nghttp2_nv` array with the indexing
/// flags of ``HeaderIndexingPolicy``. nghttp2 copies the block while the submit call runs, so the buffer is reused
/// by the next block (one per connection, no allocation per request once it has grown).
struct HeaderBlockBuilder {
    private var bytes: [UInt8] = []
    private var indexing = HeaderIndexingPolicy()
    private static let statusName: [UInt8] = Array(":status".utf8)

    /// Calls `submit` with the block of `status` (as `:status`, when given; clamped to three digits) followed by
    /// `fields`, and the number of entries.
    mutating func withBlock<Result>(status: Int? = nil, fields: [HTTPHeaderField],
                                    _ submit: (UnsafePointer<nghttp2_nv>, Int) -> Result) -> Result {
        bytes.removeAll(keepingCapacity: true)
        if let status {
            let code = max(100, min(999, status))
            bytes.append(contentsOf: Self.statusName)
            bytes.append(UInt8(48 + code / 100))
            bytes.append(UInt8(48 + (code / 10) % 10))
            bytes.append(UInt8(48 + code % 10))
        }
        for field in fields {
            // Through `withUTF8`: one copy of contiguous bytes, where appending a `String.UTF8View` goes the generic way.
            var name = field.name, value = field.value
            name.withUTF8 { bytes.append(contentsOf: $0) }
            value.withUTF8 { bytes.append(contentsOf: $0) }
        }
        let count = fields.count + (status == nil ? 0 : 1)
        return bytes.withUnsafeMutableBufferPointer { buffer in
            withUnsafeTemporaryAllocation(of: nghttp2_nv.self, capacity: count) { nva in
                let base = buffer.baseAddress!
                var entry = 0, offset = 0
                if status != nil {
                    nva[0] = nghttp2_nv(name: base, value: base + 7, namelen: 7, valuelen: 3, flags: UInt8(NGHTTP2_NV_FLAG_NONE.rawValue))
                    entry = 1
                    offset = 10
                }
                for field in fields {
                    let nameLength = field.name.utf8.count
                    let valueLength = field.value.utf8.count
                    nva[entry] = nghttp2_nv(name: base + offset, value: base + offset + nameLength,
                                            namelen: nameLength, valuelen: valueLength, flags: indexing.flags(for: field))
                    entry += 1
                    offset += nameLength + valueLength
                }
                return submit(UnsafePointer(nva.baseAddress!), count)
            }
        }
    }
}
