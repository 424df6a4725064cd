/// One HTTP header field. Received names are lowercase as on the wire (HTTP/2 requires it);
/// names you send must be lowercase too.
public struct HTTPHeaderField: Sendable, Hashable {
    /// Field name, lowercase.
    public var name: String
    /// Field value, as received or to be sent.
    public var value: String

    /// Creates a header field.
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}
