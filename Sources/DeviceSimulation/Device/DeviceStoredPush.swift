import APNsModel
/// A push APNs holds for the device while it is offline (rule 11): at most one per app, kept until the device comes
/// back online or until `deliverableUntil`, whichever is first.
///
/// JSON (``json``): `{"apns_id", "time", "topic", "push_type", "deliverable_until", "limited_by"}`, where
/// `limited_by` is `"apns-expiration"` or `"storage-limit"` (the model's setting).
public struct DeviceStoredPush: Sendable, Hashable {
    /// What bounds the storage time.
    public enum Limit: String, CaseIterable, Sendable, Hashable {
        /// The push's own `apns-expiration`.
        case apnsExpiration = "apns-expiration"
        /// The model's storage limit (``DeviceSettings/storageLimitMillis``).
        case storageLimit = "storage-limit"
    }

    /// The push's `apns-id`.
    public var apnsID: String?
    /// When APNs accepted it, in milliseconds since 1970.
    public var time: Int64
    /// The first instant at which APNs no longer delivers it, in milliseconds since 1970.
    public var deliverableUntil: Int64
    /// What set `deliverableUntil`.
    public var limitedBy: Limit
    /// The push.
    public var push: AcceptedPush

    /// Makes a stored push.
    public init(apnsID: String?, time: Int64, deliverableUntil: Int64, limitedBy: Limit, push: AcceptedPush) {
        self.apnsID = apnsID
        self.time = time
        self.deliverableUntil = deliverableUntil
        self.limitedBy = limitedBy
        self.push = push
    }

    /// The JSON form.
    public var json: JSONValue {
        .object([
            .init("apns_id", .string(orNull: apnsID)),
            .init("time", .integer(time)),
            .init("topic", .string(push.topic)),
            .init("push_type", .string(push.pushType.rawValue)),
            .init("deliverable_until", .integer(deliverableUntil)),
            .init("limited_by", .string(limitedBy.rawValue)),
        ])
    }
}
