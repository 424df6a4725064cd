/// FCM HTTP v1's request and message types, field by field, as the REST reference and the discovery document
/// (`fcm.v1.json`) list them (fcm-rules §3.1). A key not listed here is an unknown name, which Google refuses.
///
/// `AndroidConfigV2`, which the discovery document lists for a future API, is not a field of `Message` in v1 and is
/// not accepted.
enum FCMSchema {
    /// `SendMessageRequest`: `{"validate_only": bool, "message": Message}`.
    static let sendMessageRequest = ProtoMessage("google.firebase.fcm.v1.SendMessageRequest", [
        ProtoField("validate_only", .bool),
        ProtoField("message", .message(message)),
    ])

    /// `Message`.
    static let message = ProtoMessage("google.firebase.fcm.v1.Message", [
        // Output only: accepted and ignored, as a proto3 parser does.
        ProtoField("name", .string),
        ProtoField("data", .stringMap),
        ProtoField("notification", .message(notification)),
        ProtoField("android", .message(androidConfig)),
        ProtoField("webpush", .message(webpushConfig)),
        ProtoField("apns", .message(apnsConfig)),
        ProtoField("fcm_options", .message(fcmOptions)),
        ProtoField("token", .string, oneof: "target"),
        ProtoField("topic", .string, oneof: "target"),
        ProtoField("condition", .string, oneof: "target"),
        ProtoField("fid", .string, oneof: "target"),
    ])

    /// `Notification`: the template every platform starts from.
    static let notification = ProtoMessage("google.firebase.fcm.v1.Notification", [
        ProtoField("title", .string), ProtoField("body", .string), ProtoField("image", .string),
    ])

    /// `FcmOptions`.
    static let fcmOptions = ProtoMessage("google.firebase.fcm.v1.FcmOptions", [ProtoField("analytics_label", .string)])

    // MARK: Android

    static let androidMessagePriority = ProtoEnum("google.firebase.fcm.v1.AndroidMessagePriority", ["NORMAL", "HIGH"])
    static let notificationPriority = ProtoEnum("google.firebase.fcm.v1.AndroidNotification.NotificationPriority", [
        "PRIORITY_UNSPECIFIED", "PRIORITY_MIN", "PRIORITY_LOW", "PRIORITY_DEFAULT", "PRIORITY_HIGH", "PRIORITY_MAX",
    ])
    static let visibility = ProtoEnum("google.firebase.fcm.v1.AndroidNotification.Visibility", [
        "VISIBILITY_UNSPECIFIED", "PRIVATE", "PUBLIC", "SECRET",
    ])
    static let proxy = ProtoEnum("google.firebase.fcm.v1.AndroidNotification.Proxy", [
        "PROXY_UNSPECIFIED", "ALLOW", "DENY", "IF_PRIORITY_LOWERED",
    ])

    /// `AndroidConfig`.
    static let androidConfig = ProtoMessage("google.firebase.fcm.v1.AndroidConfig", [
        ProtoField("collapse_key", .string),
        ProtoField("priority", .enumeration(androidMessagePriority)),
        ProtoField("ttl", .duration),
        ProtoField("restricted_package_name", .string),
        ProtoField("data", .stringMap),
        ProtoField("notification", .message(androidNotification)),
        ProtoField("fcm_options", .message(androidFcmOptions)),
        ProtoField("direct_boot_ok", .bool),
        ProtoField("bandwidth_constrained_ok", .bool),
        ProtoField("restricted_satellite_ok", .bool),
    ])

    /// `AndroidFcmOptions`.
    static let androidFcmOptions = ProtoMessage("google.firebase.fcm.v1.AndroidFcmOptions", [ProtoField("analytics_label", .string)])

    /// `AndroidNotification`.
    static let androidNotification = ProtoMessage("google.firebase.fcm.v1.AndroidNotification", [
        ProtoField("title", .string),
        ProtoField("body", .string),
        ProtoField("icon", .string),
        ProtoField("color", .string),
        ProtoField("sound", .string),
        ProtoField("tag", .string),
        ProtoField("click_action", .string),
        ProtoField("body_loc_key", .string),
        ProtoField("body_loc_args", .repeated(.string)),
        ProtoField("title_loc_key", .string),
        ProtoField("title_loc_args", .repeated(.string)),
        ProtoField("channel_id", .string),
        ProtoField("ticker", .string),
        ProtoField("sticky", .bool),
        ProtoField("event_time", .timestamp),
        ProtoField("local_only", .bool),
        ProtoField("notification_priority", .enumeration(notificationPriority)),
        ProtoField("default_sound", .bool),
        ProtoField("default_vibrate_timings", .bool),
        ProtoField("default_light_settings", .bool),
        ProtoField("vibrate_timings", .repeated(.duration)),
        ProtoField("visibility", .enumeration(visibility)),
        ProtoField("notification_count", .int32),
        ProtoField("light_settings", .message(lightSettings)),
        ProtoField("image", .string),
        ProtoField("bypass_proxy_notification", .bool),
        ProtoField("proxy", .enumeration(proxy)),
    ])

    /// `LightSettings`.
    static let lightSettings = ProtoMessage("google.firebase.fcm.v1.LightSettings", [
        ProtoField("color", .message(color)),
        ProtoField("light_on_duration", .duration),
        ProtoField("light_off_duration", .duration),
    ])

    /// `google.type.Color`.
    static let color = ProtoMessage("google.type.Color", [
        ProtoField("red", .float), ProtoField("green", .float), ProtoField("blue", .float), ProtoField("alpha", .float),
    ])

    // MARK: Web push

    /// `WebpushConfig`.
    static let webpushConfig = ProtoMessage("google.firebase.fcm.v1.WebpushConfig", [
        ProtoField("headers", .stringMap),
        ProtoField("data", .stringMap),
        ProtoField("notification", .structObject),
        ProtoField("fcm_options", .message(webpushFcmOptions)),
    ])

    /// `WebpushFcmOptions`.
    static let webpushFcmOptions = ProtoMessage("google.firebase.fcm.v1.WebpushFcmOptions", [
        ProtoField("link", .string), ProtoField("analytics_label", .string),
    ])

    // MARK: APNs

    /// `ApnsConfig`.
    static let apnsConfig = ProtoMessage("google.firebase.fcm.v1.ApnsConfig", [
        ProtoField("headers", .stringMap),
        ProtoField("payload", .structObject),
        ProtoField("fcm_options", .message(apnsFcmOptions)),
        ProtoField("live_activity_token", .string),
    ])

    /// `ApnsFcmOptions`.
    static let apnsFcmOptions = ProtoMessage("google.firebase.fcm.v1.ApnsFcmOptions", [
        ProtoField("analytics_label", .string), ProtoField("image", .string),
    ])
}
