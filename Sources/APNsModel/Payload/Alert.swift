import JSON

/// The `aps.alert` value: a plain string (shown as the body) or a dictionary of parts.
public enum Alert: Sendable, Hashable {
    /// `"alert": "text"`: the text is the body.
    case text(String)
    /// `"alert": {…}`: see `AlertDictionary`.
    case dictionary(AlertDictionary)

    /// Views `value` as an alert; `nil` unless it is a string or an object.
    public init?(_ value: JSONValue) {
        switch value {
        case .string(let s): self = .text(s)
        case .object: self = .dictionary(AlertDictionary(value))
        default: return nil
        }
    }

    /// The body text: the string, or the dictionary's `body` when it is a string.
    public var bodyText: String? {
        switch self {
        case .text(let s): return s
        case .dictionary(let d): return d.body
        }
    }
}

/// A view over an `alert` dictionary. Text keys answer `nil` when the value is not a string (Live Activity
/// alerts may carry `{"loc-key": …}` dictionaries for `title`/`body`; read those through `json`).
public struct AlertDictionary: Sendable, Hashable {
    /// The dictionary itself.
    public var json: JSONValue

    /// Wraps an alert dictionary.
    public init(_ json: JSONValue) { self.json = json }

    /// `title`.
    public var title: String? { json["title"]?.stringValue }
    /// `subtitle`.
    public var subtitle: String? { json["subtitle"]?.stringValue }
    /// `body`.
    public var body: String? { json["body"]?.stringValue }
    /// `launch-image`.
    public var launchImage: String? { json["launch-image"]?.stringValue }
    /// `title-loc-key`: localized title key.
    public var titleLocKey: String? { json["title-loc-key"]?.stringValue }
    /// `title-loc-args`: values for `title-loc-key`.
    public var titleLocArgs: [String]? { json["title-loc-args"].flatMap(APS.strings) }
    /// `subtitle-loc-key`: localized subtitle key.
    public var subtitleLocKey: String? { json["subtitle-loc-key"]?.stringValue }
    /// `subtitle-loc-args`: values for `subtitle-loc-key`.
    public var subtitleLocArgs: [String]? { json["subtitle-loc-args"].flatMap(APS.strings) }
    /// `loc-key`: localized body key.
    public var locKey: String? { json["loc-key"]?.stringValue }
    /// `loc-args`: values for `loc-key`.
    public var locArgs: [String]? { json["loc-args"].flatMap(APS.strings) }
    /// `action` (legacy).
    public var action: String? { json["action"]?.stringValue }
    /// `action-loc-key` (legacy).
    public var actionLocKey: String? { json["action-loc-key"]?.stringValue }
    /// `summary-arg` (legacy).
    public var summaryArg: String? { json["summary-arg"]?.stringValue }
    /// `summary-arg-count` (legacy).
    public var summaryArgCount: Int64? { json["summary-arg-count"]?.integerValue }
    /// `sound` inside `alert`, as Apple's Live Activity samples place it.
    public var sound: Sound? { json["sound"].flatMap(Sound.init) }
}
