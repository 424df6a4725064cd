import CNghttp2

/// One connection's choice of nghttp2 flags for the header fields it sends: automatic indexing for every
/// field, except that a field marked `HTTPHeaderField.valueIsUnique` is indexed only the first time its
/// name is sent and goes out as a never-indexed literal after that (see that property for why).
struct HeaderIndexingPolicy {
    /// Names whose first value was indexed, so the table holds the name. A handful at most: only fields
    /// the sender marks count, and past `limit` names the policy falls back to automatic indexing.
    private var indexedUniqueNames: [String] = []
    private static let limit = 8
    private static let automatic = UInt8(NGHTTP2_NV_FLAG_NONE.rawValue)
    private static let neverIndexed = UInt8(NGHTTP2_NV_FLAG_NO_INDEX.rawValue)

    /// The `nghttp2_nv.flags` for `field`; call it once per field sent, in sending order.
    mutating func flags(for field: HTTPHeaderField) -> UInt8 {
        guard field.valueIsUnique else { return Self.automatic }
        if indexedUniqueNames.contains(field.name) { return Self.neverIndexed }
        if indexedUniqueNames.count < Self.limit { indexedUniqueNames.append(field.name) }
        return Self.automatic
    }
}
