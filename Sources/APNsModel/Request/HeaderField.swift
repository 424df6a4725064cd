/// One HTTP header as it arrived: a lowercase name and its value.
///
/// HTTP/2 requires lowercase names; `init` lowercases anyway so rules can compare names with `==`.
public struct HeaderField: Sendable, Hashable, Codable {
    /// The header name, lowercase.
    public var name: String
    /// The header value, as sent.
    public var value: String

    /// Makes a header field; `name` is lowercased (kept as is, without a copy, when it already is).
    public init(name: String, value: String) {
        self.name = ASCIIByte.lowercased(name)
        self.value = value
    }

    /// Makes a header field; `name` is lowercased.
    public init(_ name: String, _ value: String) {
        self.init(name: name, value: value)
    }
}
