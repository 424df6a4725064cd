import JSON

/// The checks of `message.apns` beyond its JSON types (fcm-rules §3.8):
/// - `headers` hold strings (the JSON front end);
/// - `payload.aps`, when present, is an object: FCM reads `alert` out of it;
/// - a data-only message (``FCMMessage/isDataOnlyForApple``) may only carry `apns-priority: 5`, as the REST
///   reference says of `Message.data` ("only normal priority … is allowed"); any other value is refused, at
///   validation, whatever the target;
/// - `fcm_options.analytics_label` (fcm-rules §3.11).
/// Header values themselves (`apns-priority: 7`, a bad `apns-expiration`) are APNs's to judge: the APNs rules see
/// them in the request FCM makes, and their refusal comes back as FCM's 400 (fcm-rules §4.5).
enum ApnsRules {
    static func check(_ message: FCMMessage) throws(FCMError) {
        guard let apns = message.apns else { return }
        if let aps = apns.payload?["aps"], !aps.isJSONObject {
            throw FCMError.invalidArgument("apns.payload.aps must be a JSON object, not \(aps.typeName).", field: "message.apns.payload")
        }
        if message.isDataOnlyForApple, let priority = apns.headers.value(forHeader: "apns-priority"),
           priority.trimmingSpaces != "5" {
            throw FCMError.invalidArgument(
                "A data-only message to iOS may only use normal priority (\"apns-priority\": \"5\"), not \"\(priority)\": add a notification or an aps alert, or send priority 5.",
                field: "message.apns.headers")
        }
        try AnalyticsLabel.check(apns.analyticsLabel, field: "message.apns.fcm_options.analytics_label")
    }
}

extension String {
    /// Without leading and trailing spaces and tabs (a header value's optional whitespace).
    var trimmingSpaces: Substring {
        var text = Substring(self)
        while let first = text.first, first == " " || first == "\t" { text.removeFirst() }
        while let last = text.last, last == " " || last == "\t" { text.removeLast() }
        return text
    }
}
