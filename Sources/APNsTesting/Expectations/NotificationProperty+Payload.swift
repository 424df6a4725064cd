import APNsModel

/// Properties read from the JSON payload.
extension NotificationProperty {
    /// `aps.alert.title` is `title`.
    public static func alertTitle(_ title: String) -> NotificationProperty {
        equal("alert title", title) { $0.alertTitle }
    }

    /// `aps.alert.body` (or a plain-string `aps.alert`) is `body`.
    public static func alertBody(_ body: String) -> NotificationProperty {
        equal("alert body", body) { $0.alertBody }
    }

    /// `aps.badge` is `badge`.
    public static func badge(_ badge: Int) -> NotificationProperty {
        equal("badge", "\(badge)", quoted: false) { $0.badge.map { "\($0)" } }
    }

    /// The top-level custom key `key` (outside `aps`) holds `value`.
    public static func customKey(_ key: String, _ value: JSONValue) -> NotificationProperty {
        NotificationProperty(name: "custom key \(key)", expected: value.jsonText(),
                             description: "custom key \(key) = \(value.jsonText())") { notification in
            let actual = notification.customValue(key)
            return PropertyCheck(matched: actual == value, actual: actual?.jsonText() ?? "absent")
        }
    }

    /// The top-level custom key `key` holds the string `value`.
    public static func customKey(_ key: String, _ value: String) -> NotificationProperty {
        customKey(key, .string(value))
    }

    /// The top-level custom key `key` holds the integer `value`.
    public static func customKey(_ key: String, _ value: Int) -> NotificationProperty {
        customKey(key, .integer(Int64(value)))
    }

    /// The top-level custom key `key` holds the boolean `value`.
    public static func customKey(_ key: String, _ value: Bool) -> NotificationProperty {
        customKey(key, .bool(value))
    }

    /// The payload has a top-level custom key `key`, whatever its value.
    public static func hasCustomKey(_ key: String) -> NotificationProperty {
        NotificationProperty(name: "custom key \(key)", expected: "present") { notification in
            let actual = notification.customValue(key)
            return PropertyCheck(matched: actual != nil, actual: actual?.jsonText() ?? "absent")
        }
    }
}
