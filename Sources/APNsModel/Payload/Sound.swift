import JSON

/// The `aps.sound` value: a sound file name, or the critical-alert dictionary.
public enum Sound: Sendable, Hashable {
    /// `"sound": "name"` (`"default"` is the system sound).
    case named(String)
    /// `"sound": {"critical": 1, "name": …, "volume": …}`.
    case critical(CriticalSound)

    /// Views `value` as a sound; `nil` unless it is a string or an object.
    public init?(_ value: JSONValue) {
        switch value {
        case .string(let s): self = .named(s)
        case .object: self = .critical(CriticalSound(value))
        default: return nil
        }
    }

    /// The sound file name, in either form.
    public var name: String? {
        switch self {
        case .named(let s): return s
        case .critical(let c): return c.name
        }
    }
}

/// A view over the critical-alert `sound` dictionary.
public struct CriticalSound: Sendable, Hashable {
    /// The dictionary itself.
    public var json: JSONValue

    /// Wraps a sound dictionary.
    public init(_ json: JSONValue) { self.json = json }

    /// `critical`: `1` marks the alert critical.
    public var critical: Int64? { json["critical"]?.integerValue }
    /// `name`: the sound file, or `"default"`.
    public var name: String? { json["name"]?.stringValue }
    /// `volume`: 0.0 to 1.0.
    public var volume: Double? { json["volume"]?.numberValue }
}
