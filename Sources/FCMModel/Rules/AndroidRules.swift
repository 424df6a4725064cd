import JSON

/// The checks of `message.android` beyond its JSON types (fcm-rules §3.9), from the REST reference and the Admin
/// SDKs' own checks:
/// - `ttl` from 0 to 2 419 200 s (four weeks);
/// - `data`: no reserved key (fcm-rules §3.6);
/// - `notification.color` `#rrggbb`; `notification_count` zero or more; `body_loc_args` only with `body_loc_key`,
///   `title_loc_args` only with `title_loc_key`; every `vibrate_timings` entry zero or more;
/// - `notification.light_settings` with its `color`, `light_on_duration` and `light_off_duration`, durations zero or
///   more;
/// - `fcm_options.analytics_label` (fcm-rules §3.11).
/// `priority`, `notification_priority`, `visibility` and `proxy` are enums, checked by the JSON front end.
enum AndroidRules {
    static func check(_ android: JSONValue) throws(FCMError) {
        if let ttl = android["ttl"]?.stringValue, let duration = ProtoDuration(ttl) {
            let tooLong = duration.seconds > FCMAndroidConfig.maximumTTLSeconds
                || (duration.seconds == FCMAndroidConfig.maximumTTLSeconds && duration.nanos > 0)
            if duration.isNegative || tooLong {
                throw FCMError.invalidArgument("Invalid TTL \(FCMTopic.quoted(ttl)): android.ttl must be a duration from 0 to 2419200 seconds (4 weeks).",
                                               field: "message.android.ttl")
            }
        }
        try DataKeys.check(FCMMessage.map(android["data"]) ?? [], field: "message.android.data")
        if let notification = android["notification"] { try checkNotification(notification) }
        try AnalyticsLabel.check(android.value(at: ["fcm_options", "analytics_label"])?.stringValue,
                                 field: "message.android.fcm_options.analytics_label")
    }

    private static func checkNotification(_ notification: JSONValue) throws(FCMError) {
        let path = "message.android.notification"
        if let color = notification["color"]?.stringValue, !isRGB(color) {
            throw FCMError.invalidArgument("Invalid color \(FCMTopic.quoted(color)): android.notification.color must be #rrggbb.",
                                           field: path + ".color")
        }
        if let count = notification["notification_count"]?.integerValue, count < 0 {
            throw FCMError.invalidArgument("notification_count must be zero or more, not \(count).", field: path + ".notification_count")
        }
        for (args, key) in [("body_loc_args", "body_loc_key"), ("title_loc_args", "title_loc_key")] {
            if let list = notification[args]?.arrayElements, !list.isEmpty, notification[key] == nil {
                throw FCMError.invalidArgument("\(key) is required when \(args) is set.", field: path + "." + key)
            }
        }
        for (index, timing) in (notification["vibrate_timings"]?.arrayElements ?? []).enumerated() {
            if let text = timing.stringValue, ProtoDuration(text)?.isNegative == true {
                throw FCMError.invalidArgument("vibrate_timings must not be negative.", field: "\(path).vibrate_timings[\(index)]")
            }
        }
        if let light = notification["light_settings"] {
            let lightPath = path + ".light_settings"
            for required in ["color", "light_on_duration", "light_off_duration"] where light[required] == nil {
                throw FCMError.invalidArgument("light_settings.\(required) is required.", field: lightPath + "." + required)
            }
            for name in ["light_on_duration", "light_off_duration"] {
                if let text = light[name]?.stringValue, ProtoDuration(text)?.isNegative == true {
                    throw FCMError.invalidArgument("light_settings.\(name) must not be negative.", field: lightPath + "." + name)
                }
            }
        }
    }

    /// `#` and six hex digits.
    static func isRGB(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        return bytes.count == 7 && bytes[0] == UInt8(ascii: "#") && bytes[1...].allSatisfy { byte in
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
                || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
        }
    }
}
