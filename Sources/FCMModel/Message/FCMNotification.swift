/// `Message.notification`: the notification template every platform starts from (fcm-rules §3.2, §5.2).
public struct FCMNotification: Sendable, Hashable {
    /// `title`.
    public var title: String?
    /// `body`.
    public var body: String?
    /// `image`: a URL the device downloads (on iOS, through the app's service extension; fcm-rules §5.4).
    public var image: String?

    /// Makes a notification.
    public init(title: String? = nil, body: String? = nil, image: String? = nil) {
        self.title = title
        self.body = body
        self.image = image
    }

    /// Whether it has text to show: a non-empty title or body.
    public var hasText: Bool {
        !(title ?? "").isEmpty || !(body ?? "").isEmpty
    }
}
