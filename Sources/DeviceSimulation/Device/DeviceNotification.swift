import APNsModel
/// One notification in Notification Center (and on the lock screen): a delivered push the system presented as a
/// banner or in the list, not yet replaced by a later push with its `apns-collapse-id` (rule 14) or removed by a tap.
///
/// JSON (``json``): `{"apns_id", "title", "body", "thread_id", "collapse_id", "time", "topic"}`; absent values are
/// `null`. `title` and `body` are the payload's (a localized alert, `loc-key`, has neither).
public struct DeviceNotification: Sendable, Hashable {
    /// The push's `apns-id`.
    public var apnsID: String?
    /// `aps.alert.title`.
    public var title: String?
    /// `aps.alert.body`, or the alert itself when it is a string.
    public var body: String?
    /// `aps.thread-id`: the group it is shown in.
    public var threadID: String?
    /// `apns-collapse-id` (an empty one counts as absent).
    public var collapseID: String?
    /// When it was delivered, in milliseconds since 1970.
    public var time: Int64
    /// The push it came from (a tap simulates on it).
    public var push: AcceptedPush

    /// Makes a notification.
    public init(
        apnsID: String?, title: String?, body: String?, threadID: String?, collapseID: String?, time: Int64,
        push: AcceptedPush
    ) {
        self.apnsID = apnsID
        self.title = title
        self.body = body
        self.threadID = threadID
        self.collapseID = collapseID
        self.time = time
        self.push = push
    }

    /// The JSON form.
    public var json: JSONValue {
        .object([
            .init("apns_id", .string(orNull: apnsID)),
            .init("title", .string(orNull: title)),
            .init("body", .string(orNull: body)),
            .init("thread_id", .string(orNull: threadID)),
            .init("collapse_id", .string(orNull: collapseID)),
            .init("time", .integer(time)),
            .init("topic", .string(push.topic)),
        ])
    }
}
