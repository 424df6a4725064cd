import JSON

/// `Message.apns`: what the sender says about the APNs request (fcm-rules §3.8, §5).
public struct FCMApnsConfig: Sendable, Hashable {
    /// `headers`: APNs request headers, as sent (names in the sender's case).
    public var headers: [FCMKeyValue] = []
    /// `payload`: the APNs payload as a JSON object, `aps` and custom keys (each key once).
    public var payload: JSONValue?
    /// `fcm_options.analytics_label`.
    public var analyticsLabel: String?
    /// `fcm_options.image`: overrides `notification.image`.
    public var image: String?
    /// `live_activity_token`: the Live Activity's push (or push-to-start) token; the APNs request goes to it as a
    /// `liveactivity` push.
    public var liveActivityToken: String?

    /// Makes a configuration.
    public init(headers: [FCMKeyValue] = [], payload: JSONValue? = nil, analyticsLabel: String? = nil, image: String? = nil,
                liveActivityToken: String? = nil) {
        self.headers = headers
        self.payload = payload
        self.analyticsLabel = analyticsLabel
        self.image = image
        self.liveActivityToken = liveActivityToken
    }

    /// `payload.aps`, when it is an object.
    public var aps: JSONValue? {
        guard let aps = payload?["aps"], aps.isJSONObject else { return nil }
        return aps
    }
}
