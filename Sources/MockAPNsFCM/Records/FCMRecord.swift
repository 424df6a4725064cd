import JSON

/// One FCM request as the front door saw and answered it: the message as sent, the answer, the project, and what
/// each target device got — on iOS, the APNs push it became (`apns_id`, the key of that push's own record).
public struct FCMRecord: Sendable {
    /// 1, 2, 3… in arrival order.
    public var sequence: UInt64
    /// `projects/P/messages/ID` when the message was accepted (`…/fake_message_id` for a dry run); nil when it was
    /// refused.
    public var name: String?
    /// The project of the path.
    public var project: String
    /// When it arrived, milliseconds since 1970.
    public var receivedAtMillis: Int64
    /// `h2` or `http/1.1`.
    public var transport: String
    /// The sender's address.
    public var remote: String
    /// `validate_only` (the SDKs' `dry_run`): checked, not delivered.
    public var validateOnly: Bool
    /// The target as written: `token`, `topic`, `condition` or `fid`, and its value (nil when the body had none).
    public var target: (kind: String, value: String)?
    /// The `message` member as the sender wrote it (nil when the body was not JSON).
    public var message: JSONValue?
    /// The HTTP status answered.
    public var status: Int
    /// The answer's body.
    public var answer: JSONValue
    /// Each device the message reached.
    public var deliveries: [Delivery]
    /// The fault plan's `fcm_error` rules that fired for it, by name.
    public var faults: [String] = []

    /// One device's delivery.
    public struct Delivery: Sendable {
        /// The registration token.
        public var token: String
        /// Its platform.
        public var platform: FCMPlatform
        /// iOS: the APNs device token pushed to.
        public var apnsToken: String?
        /// iOS: the `apns-id` of the APNs push (its record's id).
        public var apnsID: String?
        /// iOS: APNs's status for the push.
        public var apnsStatus: Int?
        /// iOS: APNs's reason, when it refused.
        public var apnsReason: String?
        /// Android: what the virtual device did (`system_tray`, `on_message_received`), or `stored` while it is
        /// offline, `dropped` for a `ttl` of 0 then (fcm-rules §6).
        public var android: String?
    }

    /// The `apns-id`s of the APNs pushes it produced.
    public var apnsIDs: [String] { deliveries.compactMap(\.apnsID) }

    /// The record as the control API serves it.
    public var json: JSONValue {
        var members: [JSONValue.JSONMember] = [
            .init("seq", .integer(Int64(clamping: sequence))),
            .init("name", name.map(JSONValue.string) ?? .null),
            .init("project", .string(project)),
            .init("received_at_ms", .integer(receivedAtMillis)),
            .init("transport", .string(transport)),
            .init("remote", .string(remote)),
            .init("validate_only", .bool(validateOnly)),
        ]
        if let target { members.append(.init(target.kind, .string(target.value))) }
        members.append(.init("status", .integer(Int64(status))))
        members.append(.init("message", message ?? .null))
        members.append(.init("answer", answer))
        members.append(.init("faults", .array(faults.map(JSONValue.string))))
        members.append(.init("apns_ids", .array(apnsIDs.map(JSONValue.string))))
        members.append(.init("deliveries", .array(deliveries.map { delivery in
            var fields: [JSONValue.JSONMember] = [.init("token", .string(delivery.token)),
                                                  .init("platform", .string(delivery.platform.rawValue))]
            if let apns = delivery.apnsToken { fields.append(.init("apns_token", .string(apns))) }
            if let id = delivery.apnsID { fields.append(.init("apns_id", .string(id))) }
            if let status = delivery.apnsStatus { fields.append(.init("apns_status", .integer(Int64(status)))) }
            if let reason = delivery.apnsReason { fields.append(.init("apns_reason", .string(reason))) }
            if let android = delivery.android { fields.append(.init("android", .string(android))) }
            return .object(fields)
        })))
        return .object(members)
    }
}
