/// `Message.android` (fcm-rules §3.9, §6): the fields the Android model reads. The rest of what the sender wrote
/// is checked and kept in ``FCMMessage/json``.
public struct FCMAndroidConfig: Sendable, Hashable {
    /// `priority`.
    public enum Priority: String, Sendable, Hashable {
        /// May wait while the device sleeps (the default for data messages).
        case normal = "NORMAL"
        /// Delivered at once, waking the device (the default for notification messages).
        case high = "HIGH"
    }

    /// `collapse_key`: only the latest message of a key is kept while the device is offline.
    public var collapseKey: String?
    /// `priority`.
    public var priority: Priority?
    /// `ttl`, whole seconds (FCM rounds a fraction down); `nil`: four weeks.
    public var ttlSeconds: Int64?
    /// `restricted_package_name`.
    public var restrictedPackageName: String?
    /// `data`: overrides `Message.data` for Android apps.
    public var data: [FCMKeyValue]?
    /// `notification`.
    public var notification: FCMAndroidNotification?
    /// `direct_boot_ok`.
    public var directBootOK: Bool?
    /// `fcm_options.analytics_label`.
    public var analyticsLabel: String?

    /// The longest `ttl` FCM keeps a message: four weeks, 2 419 200 s, also the default.
    public static let maximumTTLSeconds: Int64 = 2_419_200

    /// Makes a configuration.
    public init(collapseKey: String? = nil, priority: Priority? = nil, ttlSeconds: Int64? = nil, restrictedPackageName: String? = nil,
                data: [FCMKeyValue]? = nil, notification: FCMAndroidNotification? = nil, directBootOK: Bool? = nil,
                analyticsLabel: String? = nil) {
        self.collapseKey = collapseKey
        self.priority = priority
        self.ttlSeconds = ttlSeconds
        self.restrictedPackageName = restrictedPackageName
        self.data = data
        self.notification = notification
        self.directBootOK = directBootOK
        self.analyticsLabel = analyticsLabel
    }
}

/// `AndroidConfig.notification`: the fields the Android model reads.
public struct FCMAndroidNotification: Sendable, Hashable {
    /// `notification_priority`.
    public enum NotificationPriority: String, Sendable, Hashable {
        case unspecified = "PRIORITY_UNSPECIFIED", min = "PRIORITY_MIN", low = "PRIORITY_LOW", `default` = "PRIORITY_DEFAULT",
             high = "PRIORITY_HIGH", max = "PRIORITY_MAX"
    }

    /// `visibility`.
    public enum Visibility: String, Sendable, Hashable {
        case unspecified = "VISIBILITY_UNSPECIFIED", `private` = "PRIVATE", `public` = "PUBLIC", secret = "SECRET"
    }

    /// `title`: overrides `notification.title`.
    public var title: String?
    /// `body`: overrides `notification.body`.
    public var body: String?
    /// `channel_id`.
    public var channelID: String?
    /// `tag`: a notification with the same tag replaces the one shown.
    public var tag: String?
    /// `color`, `#rrggbb`.
    public var color: String?
    /// `click_action`.
    public var clickAction: String?
    /// `image`: overrides `notification.image`.
    public var image: String?
    /// `notification_priority`.
    public var notificationPriority: NotificationPriority?
    /// `visibility`.
    public var visibility: Visibility?
    /// `notification_count`, zero or more.
    public var notificationCount: Int32?

    /// Makes a notification.
    public init(title: String? = nil, body: String? = nil, channelID: String? = nil, tag: String? = nil, color: String? = nil,
                clickAction: String? = nil, image: String? = nil, notificationPriority: NotificationPriority? = nil,
                visibility: Visibility? = nil, notificationCount: Int32? = nil) {
        self.title = title
        self.body = body
        self.channelID = channelID
        self.tag = tag
        self.color = color
        self.clickAction = clickAction
        self.image = image
        self.notificationPriority = notificationPriority
        self.visibility = visibility
        self.notificationCount = notificationCount
    }
}
