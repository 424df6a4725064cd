import JSON

/// The checks of `message.webpush` beyond its JSON types (fcm-rules §3.10): `headers` and `data` hold strings
/// (the JSON front end), `data` no reserved key (fcm-rules §3.6), `notification` is any object, and
/// `fcm_options.link` must be an HTTPS URL (the Admin SDKs' check; FCM opens it from a click).
enum WebpushRules {
    static func check(_ webpush: JSONValue) throws(FCMError) {
        try DataKeys.check(FCMMessage.map(webpush["data"]) ?? [], field: "message.webpush.data")
        if let link = webpush.value(at: ["fcm_options", "link"])?.stringValue, !link.hasPrefix("https://") {
            throw FCMError.invalidArgument("Invalid link \(FCMTopic.quoted(link)): webpush.fcm_options.link must be an HTTPS URL.",
                                           field: "message.webpush.fcm_options.link")
        }
        try AnalyticsLabel.check(webpush.value(at: ["fcm_options", "analytics_label"])?.stringValue,
                                 field: "message.webpush.fcm_options.analytics_label")
    }
}
