/// The outcome of applying APNs's rules to one request.
public enum Verdict: Sendable, Hashable {
    /// Every rule passed; what was accepted.
    case accepted(AcceptedPush)
    /// A rule failed; the reason APNs would answer (its `status` is the HTTP status).
    case rejected(APNsReason)

    /// The reason, when rejected.
    public var reason: APNsReason? {
        if case .rejected(let reason) = self { return reason }
        return nil
    }

    /// The accepted push, when accepted.
    public var accepted: AcceptedPush? {
        if case .accepted(let push) = self { return push }
        return nil
    }

    /// The HTTP status APNs answers: the reason's status, or `AcceptedPush.successStatus` (200; 201 and 204
    /// for channel creation and deletion).
    public var status: Int { reason?.status ?? accepted?.successStatus ?? 200 }
}

/// What an accepted request amounts to, with every default filled in, so the server, recorder and delivery
/// simulator do not re-derive anything from headers.
public struct AcceptedPush: Sendable, Hashable {
    /// Which endpoint was addressed.
    public var route: Route
    /// The device token from the path (as sent), for device pushes.
    public var deviceToken: String?
    /// The topic: `apns-topic`, or the certificate's topic when absent; the bundle ID for broadcast/channel routes.
    public var topic: String
    /// `apns-push-type`, or the inferred type when absent; `liveactivity` for broadcast/channel routes.
    public var pushType: PushType
    /// Whether `pushType` was inferred because the header was absent.
    public var pushTypeInferred: Bool
    /// `apns-priority`, or the default.
    public var priority: Priority
    /// `apns-id` as sent, or `nil` when absent (the server then generates one).
    public var apnsID: String?
    /// `apns-expiration` in epoch seconds, or `nil` when absent.
    public var expiration: Int64?
    /// `apns-collapse-id`, if sent.
    public var collapseID: String?
    /// The parsed body; an empty object for channel requests without a body.
    public var payload: JSONValue
    /// `apns-channel-id`, for broadcast, channel read and channel delete requests.
    public var channelID: String?
    /// `apns-request-id` as sent, for broadcast and channel requests (the server generates one when absent).
    public var requestID: String?
    /// For channel creation: `message-storage-policy` (0 = no storage, 1 = keep the latest message).
    public var messageStoragePolicy: Int?
    /// For channel-management routes: what the request asks for.
    public var channelOperation: Route.ChannelOperation?

    /// The status of a successful answer: `201` for a created channel, `204` for a deleted one, else `200`.
    public var successStatus: Int {
        switch channelOperation {
        case .create: return 201
        case .delete: return 204
        default: return 200
        }
    }

    /// Makes an accepted push.
    public init(route: Route, deviceToken: String? = nil, topic: String, pushType: PushType,
                pushTypeInferred: Bool = false, priority: Priority = .default, apnsID: String? = nil,
                expiration: Int64? = nil, collapseID: String? = nil, payload: JSONValue,
                channelID: String? = nil, requestID: String? = nil, messageStoragePolicy: Int? = nil,
                channelOperation: Route.ChannelOperation? = nil) {
        self.route = route
        self.deviceToken = deviceToken
        self.topic = topic
        self.pushType = pushType
        self.pushTypeInferred = pushTypeInferred
        self.priority = priority
        self.apnsID = apnsID
        self.expiration = expiration
        self.collapseID = collapseID
        self.payload = payload
        self.channelID = channelID
        self.requestID = requestID
        self.messageStoragePolicy = messageStoragePolicy
        self.channelOperation = channelOperation
    }
}
