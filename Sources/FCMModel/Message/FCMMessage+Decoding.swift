import JSON

/// Reading the typed parts of a message from its normal form (``SchemaWalker``'s output), in which every member
/// already has the right JSON type, so these reads cannot fail.
extension FCMMessage {
    init(normal json: JSONValue, target: FCMTarget) {
        self.init(target: target, data: Self.map(json["data"]) ?? [], json: json)
        if let notification = json["notification"] {
            self.notification = FCMNotification(title: notification["title"]?.stringValue, body: notification["body"]?.stringValue,
                                                image: notification["image"]?.stringValue)
        }
        if let android = json["android"] { self.android = Self.android(android) }
        if let webpush = json["webpush"] {
            self.webpush = FCMWebpushConfig(headers: Self.map(webpush["headers"]) ?? [], data: Self.map(webpush["data"]),
                                            notification: webpush["notification"],
                                            link: webpush.value(at: ["fcm_options", "link"])?.stringValue,
                                            analyticsLabel: webpush.value(at: ["fcm_options", "analytics_label"])?.stringValue)
        }
        if let apns = json["apns"] {
            self.apns = FCMApnsConfig(headers: Self.map(apns["headers"]) ?? [], payload: apns["payload"],
                                      analyticsLabel: apns.value(at: ["fcm_options", "analytics_label"])?.stringValue,
                                      image: apns.value(at: ["fcm_options", "image"])?.stringValue,
                                      liveActivityToken: apns["live_activity_token"]?.stringValue)
        }
        analyticsLabel = json.value(at: ["fcm_options", "analytics_label"])?.stringValue
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
