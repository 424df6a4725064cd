import APNsModel
/// The notifications of one `thread-id` as the lock screen stacks them (rule 14); notifications without a
/// `thread-id` share one group per app (iOS's automatic grouping), here `threadID` `nil`.
///
/// JSON (``json``): `{"thread_id": "…"|null, "notifications": [ …newest first… ]}`.
public struct DeviceNotificationGroup: Sendable, Hashable {
    /// The group's `thread-id`, or `nil` for notifications sent without one.
    public var threadID: String?
    /// The group's notifications, newest first.
    public var notifications: [DeviceNotification]

    /// Makes a group.
    public init(threadID: String?, notifications: [DeviceNotification]) {
        self.threadID = threadID
        self.notifications = notifications
    }

    /// Groups notifications listed newest first: one group per `thread-id`, groups ordered by their newest
    /// notification, each group's notifications newest first.
    public static func grouping(_ newestFirst: [DeviceNotification]) -> [DeviceNotificationGroup] {
        var groups: [DeviceNotificationGroup] = []
        for notification in newestFirst {
            if let index = groups.firstIndex(where: { $0.threadID == notification.threadID }) {
                groups[index].notifications.append(notification)
            } else {
                groups.append(DeviceNotificationGroup(threadID: notification.threadID, notifications: [notification]))
            }
        }
        return groups
    }

    /// The JSON form.
    public var json: JSONValue {
        .object([
            .init("thread_id", .string(orNull: threadID)),
            .init("notifications", .array(notifications.map(\.json))),
        ])
    }
}
