import JSON

/// FCM's checks of a message whose JSON is well formed (fcm-rules §3), in the order the mock applies them: the
/// target, `data`, `android`, `webpush`, `apns`, `fcm_options`, then the size. The first failure is the answer,
/// a 400 `INVALID_ARGUMENT` with an `FcmError` detail (and a `BadRequest` naming the field).
enum MessageRules {
    /// The typed message, or the first rule it breaks. `json` is the message in normal form.
    static func check(_ json: JSONValue, limits: FCMLimits) throws(FCMError) -> FCMMessage {
        let target = try target(of: json, limits: limits)
        let message = FCMMessage(normal: json, target: target)
        try DataKeys.check(message.data, field: "message.data")
        if let android = json["android"] { try AndroidRules.check(android) }
        if let webpush = json["webpush"] { try WebpushRules.check(webpush) }
        try ApnsRules.check(message)
        try AnalyticsLabel.check(message.analyticsLabel, field: "message.fcm_options.analytics_label")
        try MessageSize.check(message, limits: limits)
        return message
    }

    /// Exactly one target (the JSON front end already refused two members of the oneof), checked for shape
    /// (fcm-rules §3.2).
    static func target(of json: JSONValue, limits: FCMLimits) throws(FCMError) -> FCMTarget {
        if let token = json["token"]?.stringValue {
            return .token(try FCMRegistrationToken.parse(token))
        }
        if let topic = json["topic"]?.stringValue {
            try FCMTopic.check(topic)
            return .topic(topic)
        }
        if let condition = json["condition"]?.stringValue {
            return .condition(try FCMCondition.parse(condition, maximumTopics: limits.maximumConditionTopics))
        }
        if let fid = json["fid"]?.stringValue { return .fid(fid) }
        throw FCMError.invalidArgument("Recipient of the message is not set.", field: "message",
                                       description: "Exactly one of token, topic, condition or fid must be set.")
    }
}
