import APNsModel

/// One builder per push type, each applying apns-rules §2.2-2.3: topic suffix, allowed priorities, expiration.
extension APNsNotification {
    /// An alert (`alert`, topic = bundle ID) with any payload; priority 10 (now) or 5 (power-aware).
    public static func alert(bundleID: String, payload: JSONValue, priority: Priority = .immediate,
                             expiration: Int64? = nil) -> APNsNotification {
        APNsNotification(pushType: .alert, bundleID: bundleID, payload: payload, priority: priority, expiration: expiration)
    }

    /// An alert with `aps.alert.title` / `body`, and optionally `badge` and `sound`.
    public static func alert(bundleID: String, title: String? = nil, body: String, badge: Int? = nil,
                             sound: String? = nil, priority: Priority = .immediate) -> APNsNotification {
        var alert: [JSONValue.JSONMember] = []
        if let title { alert.append(.init("title", .string(title))) }
        alert.append(.init("body", .string(body)))
        var aps: [JSONValue.JSONMember] = [.init("alert", .object(alert))]
        if let badge { aps.append(.init("badge", .integer(Int64(badge)))) }
        if let sound { aps.append(.init("sound", .string(sound))) }
        return .alert(bundleID: bundleID, payload: .object([.init("aps", .object(aps))]), priority: priority)
    }

    /// A silent push (`background`): `{"aps":{"content-available":1}}` plus `customData` members; priority is
    /// always 5 (APNs rejects 10).
    public static func background(bundleID: String, customData: [JSONValue.JSONMember] = [],
                                  expiration: Int64? = nil) -> APNsNotification {
        let payload = JSONValue.object([.init("aps", .object([.init("content-available", .integer(1))]))] + customData)
        return APNsNotification(pushType: .background, bundleID: bundleID, payload: payload,
                                priority: .considerPower, expiration: expiration)
    }

    /// A Location Push Service Extension query (`location`, `.location-query`); token auth only.
    public static func location(bundleID: String, payload: JSONValue = .object([.init("aps", .object([]))]),
                                priority: Priority = .immediate) -> APNsNotification {
        APNsNotification(pushType: .location, bundleID: bundleID, payload: payload, priority: priority, expiration: nil)
    }

    /// A VoIP push (`voip`, `.voip`; body up to 5120 bytes).
    public static func voip(bundleID: String, payload: JSONValue, priority: Priority? = .immediate,
                            expiration: Int64? = nil) -> APNsNotification {
        APNsNotification(pushType: .voip, bundleID: bundleID, payload: payload, priority: priority, expiration: expiration)
    }

    /// A watch complication update (`complication`, `.complication`).
    public static func complication(bundleID: String, payload: JSONValue, priority: Priority? = nil,
                                    expiration: Int64? = nil) -> APNsNotification {
        APNsNotification(pushType: .complication, bundleID: bundleID, payload: payload, priority: priority,
                         expiration: expiration)
    }

    /// A File Provider signal (`fileprovider`, `.pushkit.fileprovider`).
    public static func fileProvider(bundleID: String, payload: JSONValue = .object([.init("aps", .object([]))]),
                                    priority: Priority? = nil, expiration: Int64? = nil) -> APNsNotification {
        APNsNotification(pushType: .fileprovider, bundleID: bundleID, payload: payload, priority: priority,
                         expiration: expiration)
    }

    /// An MDM wake-up (`mdm`): the topic is the push certificate's UID, the body `{"mdm":"<PushMagic>"}`.
    public static func mdm(certificateUID: String, pushMagic: String) -> APNsNotification {
        APNsNotification(pushType: .mdm, bundleID: certificateUID, payload: .object([.init("mdm", .string(pushMagic))]),
                         priority: nil, expiration: nil)
    }

    /// A Live Activity update (`liveactivity`, `.push-type.liveactivity`). Priority 10 counts against the
    /// budget, 5 does not.
    public static func liveActivity(bundleID: String, payload: JSONValue, priority: Priority = .immediate,
                                    expiration: Int64? = nil) -> APNsNotification {
        APNsNotification(pushType: .liveactivity, bundleID: bundleID, payload: payload, priority: priority,
                         expiration: expiration)
    }

    /// A Push to Talk push (`pushtotalk`, `.voip-ptt`): priority 10 and expiration 0, as Apple requires.
    public static func pushToTalk(bundleID: String, payload: JSONValue = .object([.init("aps", .object([]))]))
        -> APNsNotification {
        APNsNotification(pushType: .pushtotalk, bundleID: bundleID, payload: payload, priority: .immediate, expiration: 0)
    }

    /// A widget reload (`widgets`, `.push-type.widgets`): `{"aps":{"content-changed":true}}`, no priority, no
    /// expiration (as in Apple's sample).
    public static func widgets(bundleID: String) -> APNsNotification {
        APNsNotification(pushType: .widgets, bundleID: bundleID, payload: contentChanged, priority: nil, expiration: nil)
    }

    /// A Control Center control reload (`controls`, `.push-type.controls`): `{"aps":{"content-changed":true}}`,
    /// priority 10 and expiration 0 (as in Apple's sample).
    public static func controls(bundleID: String) -> APNsNotification {
        APNsNotification(pushType: .controls, bundleID: bundleID, payload: contentChanged, priority: .immediate,
                         expiration: 0)
    }

    private static let contentChanged = JSONValue.object([.init("aps", .object([.init("content-changed", .bool(true))]))])
}
