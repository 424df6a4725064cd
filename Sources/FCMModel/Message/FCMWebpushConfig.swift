import JSON

/// `Message.webpush` (fcm-rules §3.10).
public struct FCMWebpushConfig: Sendable, Hashable {
    /// `headers`: Web Push protocol headers (`TTL`, `Urgency`, …).
    public var headers: [FCMKeyValue] = []
    /// `data`: overrides `Message.data` for web apps.
    public var data: [FCMKeyValue]?
    /// `notification`: the Web Notification's options, any JSON object.
    public var notification: JSONValue?
    /// `fcm_options.link`: the HTTPS page a click opens.
    public var link: String?
    /// `fcm_options.analytics_label`.
    public var analyticsLabel: String?

    /// Makes a configuration.
    public init(headers: [FCMKeyValue] = [], data: [FCMKeyValue]? = nil, notification: JSONValue? = nil, link: String? = nil,
                analyticsLabel: String? = nil) {
        self.headers = headers
        self.data = data
        self.notification = notification
        self.link = link
        self.analyticsLabel = analyticsLabel
    }
}
