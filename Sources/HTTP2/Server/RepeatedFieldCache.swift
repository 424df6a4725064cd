#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The previous request's header strings on one connection, handed out again when the next request repeats
/// their bytes.
///
/// Senders repeat most header fields on every request of a connection: the same token, topic and push type
/// (HPACK exists for that reason). Reusing the earlier `String` when a field's bytes match turns a repeat into a
/// comparison instead of an allocation and a UTF-8 validation, and lets the stored copies of requests (the mock's
/// records) share those strings. Only exact byte matches are reused, so a request always reads exactly as sent.
/// Each request gets its own header list and body: a field that differs (an `apns-id`, a token in the path, a
/// payload) costs what it would without this cache.
///
/// Confined to the connection's loop thread (headers of one stream arrive back to back, RFC 9113 §4.3).
struct RepeatedFieldCache {
    private(set) var method = ""
    private(set) var path = ""
    private(set) var scheme: String?
    private(set) var authority: String?
    /// The last completed request's regular headers, in wire order: where a new request's fields look for strings.
    private(set) var headers: [HTTPHeaderField] = []

    /// `value` as a string: `cached` when it holds the same bytes, else a new string that replaces it.
    static func string(_ value: UnsafeBufferPointer<UInt8>, cached: inout String) -> String {
        if Self.bytes(of: cached, equal: value) { return cached }
        cached = String(decoding: value, as: UTF8.self)
        return cached
    }

    /// `string(_:cached:)` for an optional cached value.
    static func string(_ value: UnsafeBufferPointer<UInt8>, cached: inout String?) -> String {
        if let current = cached, Self.bytes(of: current, equal: value) { return current }
        let made = String(decoding: value, as: UTF8.self)
        cached = made
        return made
    }

    mutating func method(_ value: UnsafeBufferPointer<UInt8>) -> String { Self.string(value, cached: &method) }
    mutating func path(_ value: UnsafeBufferPointer<UInt8>) -> String { Self.string(value, cached: &path) }
    mutating func scheme(_ value: UnsafeBufferPointer<UInt8>) -> String { Self.string(value, cached: &scheme) }
    mutating func authority(_ value: UnsafeBufferPointer<UInt8>) -> String { Self.string(value, cached: &authority) }

    /// A header field for `name`/`value`, reusing strings of the previous request's `headers` that have the same
    /// bytes (`hint`: where to look first, the same position in the list). Looks at no more than 16 fields, so a
    /// long header list costs at most a constant per field. `mutating` only so that the connection's copy is used
    /// in place (an access, not a copy and a retain of the list per field).
    mutating func field(name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>, hint: Int) -> HTTPHeaderField {
        Self.field(name: name, value: value, previous: headers, hint: hint)
    }

    /// `field(name:value:hint:)` against a given `previous` list.
    @inline(__always)
    static func field(name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>,
                      previous: [HTTPHeaderField], hint: Int) -> HTTPHeaderField {
        var reusedName: String?
        var reusedValue: String?
        let count = previous.count
        var index = hint < count ? hint : 0
        for _ in 0..<min(count, 16) {
            let field = previous[index]
            if bytes(of: field.name, equal: name) {
                reusedName = field.name
                if bytes(of: field.value, equal: value) { reusedValue = field.value }
                break
            }
            index = index + 1 == count ? 0 : index + 1
        }
        return HTTPHeaderField(lowercaseName: reusedName ?? String(decoding: name, as: UTF8.self),
                               value: reusedValue ?? String(decoding: value, as: UTF8.self))
    }

    /// Remembers a completed request's header list for the requests after it.
    mutating func remember(headers: [HTTPHeaderField]) {
        self.headers = headers
    }

    /// Whether `string`'s UTF-8 is exactly `bytes` (the length first: most differing fields differ there).
    @inline(__always)
    private static func bytes(of string: String, equal bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard string.utf8.count == bytes.count else { return false }
        if bytes.isEmpty { return true }
        return string.utf8.withContiguousStorageIfAvailable { memcmp($0.baseAddress!, bytes.baseAddress!, bytes.count) == 0 }
            ?? string.utf8.elementsEqual(bytes)
    }
}
