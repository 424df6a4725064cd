/// One HTTP header field: a lowercase name and its value. The one field type of the project — the transport receives
/// and sends it (`HTTP2.HTTPHeaderField`), the model reads it (`APNsModel.HeaderField`), both names of this type — so a
/// request's fields reach the decision path, and an answer's fields reach nghttp2, without being copied into another
/// type on the way. Pure Swift, no dependency: the model stays free of networking.
public struct HTTPField: Sendable, Hashable, Codable {
    /// The name, lowercase (HTTP/2 requires it; rules compare names with `==`).
    public var name: String
    /// The value, as received or to be sent.
    public var value: String
    /// Set on a field you send whose value differs on every message (a request or response ID). HPACK's table only
    /// helps values that repeat; such a value would cost both ends a copy into it and push out entries that do
    /// repeat. The HTTP/2 connection then indexes the field once, so that its name enters the table, and after that
    /// sends it as a never-indexed literal that still names it by index. Always false on received fields; not part of
    /// equality, hashing or coding.
    public var valueIsUnique = false

    private enum CodingKeys: String, CodingKey {
        case name, value
    }

    /// Makes a field; `name` is lowercased (kept as is, without a copy, when it already is).
    public init(name: String, value: String, valueIsUnique: Bool = false) {
        self.name = Self.lowercased(name)
        self.value = value
        self.valueIsUnique = valueIsUnique
    }

    /// Makes a field; `name` is lowercased.
    public init(_ name: String, _ value: String) {
        self.init(name: name, value: value)
    }

    /// Makes a field whose name the caller knows is lowercase (received over HTTP/2, or a constant): no check.
    public init(lowercaseName name: String, value: String, valueIsUnique: Bool = false) {
        self.name = name
        self.value = value
        self.valueIsUnique = valueIsUnique
    }

    public static func == (lhs: HTTPField, rhs: HTTPField) -> Bool {
        lhs.name == rhs.name && lhs.value == rhs.value
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(value)
    }

    /// `text` with ASCII capitals lowered; `text` itself when it has none (the usual case), without a copy.
    private static func lowercased(_ text: String) -> String {
        var text = text
        let hasCapital = text.withUTF8 { bytes in bytes.contains { $0 &- UInt8(ascii: "A") < 26 } }
        return hasCapital ? text.lowercased() : text
    }
}
