import JSON

/// A view over the `aps` dictionary: every Apple-defined key, typed, with the raw value always in `json`.
public struct APS: Sendable, Hashable {
    /// The `aps` dictionary itself.
    public var json: JSONValue

    /// Wraps an `aps` dictionary.
    public init(_ json: JSONValue) { self.json = json }

    /// `alert`: a string (the body) or a dictionary.
    public var alert: Alert? { json["alert"].flatMap(Alert.init) }
    /// `badge`: the badge number (`0` clears it).
    public var badge: Int64? { json["badge"]?.integerValue }
    /// `sound`: a file name, or the critical-alert dictionary.
    public var sound: Sound? { json["sound"].flatMap(Sound.init) }
    /// `thread-id`: groups notifications.
    public var threadID: String? { json["thread-id"]?.stringValue }
    /// `category`: the registered notification category (action buttons).
    public var category: String? { json["category"]?.stringValue }
    /// `content-available`: `1` marks a background update.
    public var contentAvailable: Int64? { json["content-available"]?.integerValue }
    /// `mutable-content`: `1` routes the push through the Notification Service Extension.
    public var mutableContent: Int64? { json["mutable-content"]?.integerValue }
    /// `target-content-id`: the window or scene to bring forward.
    public var targetContentID: String? { json["target-content-id"]?.stringValue }
    /// `interruption-level`: `passive`, `active`, `time-sensitive` or `critical`.
    public var interruptionLevel: String? { json["interruption-level"]?.stringValue }
    /// `relevance-score`: ranking in the notification summary (0…1; any number for Live Activities).
    public var relevanceScore: Double? { json["relevance-score"]?.numberValue }
    /// `filter-criteria`: Focus filter criteria.
    public var filterCriteria: String? { json["filter-criteria"]?.stringValue }
    /// `url-args`: Safari web push arguments (legacy).
    public var urlArgs: [String]? { json["url-args"].flatMap(Self.strings) }

    // MARK: Live Activities

    /// `event`: `start`, `update` or `end`.
    public var event: String? { json["event"]?.stringValue }
    /// `timestamp`: epoch seconds when the update was sent; the newest wins.
    public var timestamp: Double? { json["timestamp"]?.numberValue }
    /// `content-state`: the activity's dynamic state (kept as JSON; the app decodes it).
    public var contentState: JSONValue? { json["content-state"] }
    /// `stale-date`: epoch seconds after which the activity shows as stale.
    public var staleDate: Double? { json["stale-date"]?.numberValue }
    /// `dismissal-date`: epoch seconds at which an ended activity is removed.
    public var dismissalDate: Double? { json["dismissal-date"]?.numberValue }
    /// `attributes-type`: the `ActivityAttributes` type name, for push-to-start.
    public var attributesType: String? { json["attributes-type"]?.stringValue }
    /// `attributes`: the static attributes, for push-to-start.
    public var attributes: JSONValue? { json["attributes"] }
    /// `input-push-token`: `1` asks for a per-activity update token (push-to-start, iOS 18+).
    public var inputPushToken: Int64? { json["input-push-token"]?.integerValue }
    /// `input-push-channel`: a broadcast channel ID to subscribe the new activity to (iOS 18+).
    public var inputPushChannel: String? { json["input-push-channel"]?.stringValue }

    // MARK: Widgets and controls

    /// `content-changed`: `true` tells WidgetKit to reload.
    public var contentChanged: Bool? { json["content-changed"]?.boolValue }

    /// Whether this is Apple's background-push shape: `content-available: 1` and no alert, badge or sound.
    public var isBackgroundOnly: Bool {
        json["content-available"]?.numberValue == 1 && json["alert"] == nil && json["badge"] == nil
            && json["sound"] == nil
    }

    static func strings(_ value: JSONValue) -> [String]? {
        guard case .array(let elements) = value else { return nil }
        let strings = elements.compactMap(\.stringValue)
        return strings.count == elements.count ? strings : nil
    }
}
