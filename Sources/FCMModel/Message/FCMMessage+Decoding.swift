import JSON

/// Reading the typed parts of a message from its normal form (``SchemaWalker``'s output), in which every member
/// already has the right JSON type, so these reads cannot fail.
extension FCMMessage {
    init(normal json: JSONValue, target: FCMTarget) {
        self.init(target: target, json: json)
        // One pass over the members (each known key at most once in the normal form), not a lookup per part.
        for member in json.objectMembers ?? [] {
            let value = member.value
            switch member.key {
            case "data":
                data = Self.map(value) ?? []
            case "notification":
                notification = FCMNotification(title: value["title"]?.stringValue, body: value["body"]?.stringValue,
                                               image: value["image"]?.stringValue)
            case "android":
                android = Self.android(value)
            case "webpush":
                webpush = FCMWebpushConfig(headers: Self.map(value["headers"]) ?? [], data: Self.map(value["data"]),
                                           notification: value["notification"],
                                           link: value.value(at: ["fcm_options", "link"])?.stringValue,
                                           analyticsLabel: value.value(at: ["fcm_options", "analytics_label"])?.stringValue)
            case "apns":
                apns = FCMApnsConfig(headers: Self.map(value["headers"]) ?? [], payload: value["payload"],
                                     analyticsLabel: value.value(at: ["fcm_options", "analytics_label"])?.stringValue,
                                     image: value.value(at: ["fcm_options", "image"])?.stringValue,
                                     liveActivityToken: value["live_activity_token"]?.stringValue)
            case "fcm_options":
                analyticsLabel = value["analytics_label"]?.stringValue
            default:
                break
            }
        }
    }

    private static func android(_ json: JSONValue) -> FCMAndroidConfig {
        var config = FCMAndroidConfig(
            collapseKey: json["collapse_key"]?.stringValue,
            priority: json["priority"]?.stringValue.flatMap(FCMAndroidConfig.Priority.init(rawValue:)),
            ttlSeconds: json["ttl"]?.stringValue.flatMap(ProtoDuration.init)?.wholeSeconds,
            restrictedPackageName: json["restricted_package_name"]?.stringValue,
            data: map(json["data"]), directBootOK: json["direct_boot_ok"]?.boolValue,
            analyticsLabel: json.value(at: ["fcm_options", "analytics_label"])?.stringValue)
        if let notification = json["notification"] {
            config.notification = FCMAndroidNotification(
                title: notification["title"]?.stringValue, body: notification["body"]?.stringValue,
                channelID: notification["channel_id"]?.stringValue, tag: notification["tag"]?.stringValue,
                color: notification["color"]?.stringValue, clickAction: notification["click_action"]?.stringValue,
                image: notification["image"]?.stringValue,
                notificationPriority: notification["notification_priority"]?.stringValue
                    .flatMap(FCMAndroidNotification.NotificationPriority.init(rawValue:)),
                visibility: notification["visibility"]?.stringValue.flatMap(FCMAndroidNotification.Visibility.init(rawValue:)),
                notificationCount: notification["notification_count"]?.integerValue.flatMap { Int32(exactly: $0) })
        }
        return config
    }

    /// A normal-form `map<string, string>` as entries.
    static func map(_ json: JSONValue?) -> [FCMKeyValue]? {
        guard let members = json?.objectMembers else { return nil }
        return members.compactMap { member in member.value.stringValue.map { FCMKeyValue(member.key, $0) } }
    }
}
