import JSON

/// A message that passed every check of fcm-rules §3: where it goes and what it carries, typed for the rules that
/// read it (the APNs translation, the Android model), with everything the sender wrote in ``json``.
public struct FCMMessage: Sendable, Hashable {
    /// Where it goes.
    public var target: FCMTarget
    /// `data`, in the order sent.
    public var data: [FCMKeyValue]
    /// `notification`.
    public var notification: FCMNotification?
    /// `android`.
    public var android: FCMAndroidConfig?
    /// `webpush`.
    public var webpush: FCMWebpushConfig?
    /// `apns`.
    public var apns: FCMApnsConfig?
    /// `fcm_options.analytics_label`.
    public var analyticsLabel: String?
    /// The message in normal form: keys in their proto (snake_case) spelling whichever the sender used, `null`
    /// members left out, enum names upper case (``SchemaWalker``). The message exactly as sent is
    /// ``FCMSendRequest/rawMessage``.
    public var json: JSONValue

    /// Makes a message (tests and tools; a server gets one from ``FCMSendRequest/parse(_:limits:)``).
    public init(target: FCMTarget, data: [FCMKeyValue] = [], notification: FCMNotification? = nil, android: FCMAndroidConfig? = nil,
                webpush: FCMWebpushConfig? = nil, apns: FCMApnsConfig? = nil, analyticsLabel: String? = nil, json: JSONValue = .object([])) {
        self.target = target
        self.data = data
        self.notification = notification
        self.android = android
        self.webpush = webpush
        self.apns = apns
        self.analyticsLabel = analyticsLabel
        self.json = json
    }

    /// Whether an iPhone would get nothing to show: no notification text, no `alert`, `badge` or `sound` in
    /// `apns.payload.aps`, and no Live Activity token (fcm-rules §3.8). Such a message may only be sent with
    /// `apns-priority: 5`, and becomes a `background` push.
    public var isDataOnlyForApple: Bool {
        if notification?.hasText == true || apns?.liveActivityToken != nil { return false }
        guard let aps = apns?.aps else { return true }
        return aps["alert"] == nil && aps["badge"] == nil && aps["sound"] == nil
    }
}
