import JSON

/// How a push, and the record of it, hold a payload: as a value, or as JSON text kept as received and parsed only
/// when the payload is read. The server decides and records at the request rate and reads payloads rarely; a parsed
/// tree is many small allocations to build, copy and free, while the text is the body it already holds.
public enum PayloadSource: Sendable, Equatable {
    /// This value (nil: there is no payload — a body that is not JSON, or none).
    case value(JSONValue?)
    /// JSON text already known to parse (`JSONValue.parse` accepts it): parsed when the payload is read.
    case text([UInt8])

    /// The payload: the value, or the text parsed.
    public var payload: JSONValue? {
        switch self {
        case .value(let value): return value
        case .text(let bytes): return try? JSONValue.parse(bytes)
        }
    }

    /// The text, when the payload is held as text.
    public var text: [UInt8]? {
        if case .text(let bytes) = self { return bytes }
        return nil
    }

    /// The source for a request body: its text when it is non-empty JSON, else no payload. The check is the
    /// allocation-free validator; the tree is built only if someone reads it.
    public static func body(_ body: [UInt8]) -> PayloadSource {
        !body.isEmpty && JSONValue.isValid(body) ? .text(body) : .value(nil)
    }
}
