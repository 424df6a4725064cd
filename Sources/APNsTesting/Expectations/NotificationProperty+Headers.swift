import APNsModel

/// Properties read from the path and the `apns-*` headers.
extension NotificationProperty {
    /// Sent to this device token (case-insensitive).
    public static func token(_ token: String) -> NotificationProperty {
        NotificationProperty(name: "device token", expected: token) { notification in
            let actual = notification.deviceToken
            return PropertyCheck(matched: actual?.lowercased() == token.lowercased(), actual: actual ?? "none")
        }
    }

    /// `apns-topic` is `topic`.
    public static func topic(_ topic: String) -> NotificationProperty {
        equal("topic", topic, quoted: false) { $0.topic }
    }

    /// `apns-push-type` is `type`.
    public static func pushType(_ type: PushType) -> NotificationProperty {
        equal("push type", type.rawValue, quoted: false) { $0.record.header("apns-push-type") }
    }

    /// The priority APNs would use is `priority` (an absent `apns-priority` counts as 10).
    public static func priority(_ priority: Priority) -> NotificationProperty {
        NotificationProperty(name: "priority", expected: "\(priority.rawValue)") { notification in
            guard let header = notification.record.header("apns-priority") else {
                return PropertyCheck(matched: priority == .default, actual: "absent (10 by default)")
            }
            return PropertyCheck(matched: header == "\(priority.rawValue)", actual: header)
        }
    }

    /// `apns-collapse-id` is `id`.
    public static func collapseID(_ id: String) -> NotificationProperty {
        equal("collapse id", id) { $0.collapseID }
    }
}
