/// One HTTP header field. Received names are lowercase as on the wire (HTTP/2 requires it);
/// names you send must be lowercase too.
public struct HTTPHeaderField: Sendable, Hashable {
    /// Field name, lowercase.
    public var name: String
    /// Field value, as received or to be sent.
    public var value: String
    /// Set on a field you send whose value differs on every message (a request or response ID). HPACK's
    /// table only helps values that repeat; such a value would cost both ends a copy into it and push out
    /// entries that do repeat. The connection then indexes the field once, so that its name enters the table,
    /// and after that sends it as a never-indexed literal that still names it by index. Always false on
    /// received fields.
    public var valueIsUnique: Bool

    /// Creates a header field.
    public init(name: String, value: String, valueIsUnique: Bool = false) {
        self.name = name
        self.value = value
        self.valueIsUnique = valueIsUnique
    }
}
