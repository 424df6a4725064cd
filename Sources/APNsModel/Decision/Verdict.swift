import JSON

/// The outcome of applying APNs's rules to one request.
public enum Verdict: Sendable, Hashable {
    /// Every rule passed; what was accepted.
    case accepted(AcceptedPush)
    /// A rule failed; the reason APNs would answer (its `status` is the HTTP status), and the endpoint the request
    /// addressed when its path resolved to one (nil for `BadPath` and the other route errors).
    case rejected(APNsReason, route: Route? = nil)

    /// The reason, when rejected.
    public var reason: APNsReason? {
        if case .rejected(let reason, _) = self { return reason }
        return nil
    }

    /// The endpoint the request addressed, accepted or not; nil when its path named none.
    public var route: Route? {
        switch self {
        case .accepted(let push): return push.route
        case .rejected(_, let route): return route
        }
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
    ///
    /// A device push keeps its body's bytes, already checked to be a JSON object, and parses them when this is
    /// read: the server only records the body, and a parsed tree costs many allocations per request.
    public var payload: JSONValue {
        get { payloadSource.payload ?? .object([]) }
        set { payloadSource = .value(newValue) }
    }
    /// How `payload` is held: the request body's JSON text for a device push (parsed only when read; the record
    /// keeps the same source), a value otherwise.
    public private(set) var payloadSource: PayloadSource
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
        self.init(route: route, deviceToken: deviceToken, topic: topic, pushType: pushType,
                  pushTypeInferred: pushTypeInferred, priority: priority, apnsID: apnsID, expiration: expiration,
                  collapseID: collapseID, payloadSource: .value(payload), channelID: channelID, requestID: requestID,
                  messageStoragePolicy: messageStoragePolicy, channelOperation: channelOperation)
    }

    /// An accepted push whose payload is `body`, JSON text already checked to be an object, parsed on demand.
    init(route: Route, deviceToken: String?, topic: String, pushType: PushType, pushTypeInferred: Bool,
         priority: Priority, apnsID: String?, expiration: Int64?, collapseID: String?, objectBody body: [UInt8]) {
        self.init(route: route, deviceToken: deviceToken, topic: topic, pushType: pushType,
                  pushTypeInferred: pushTypeInferred, priority: priority, apnsID: apnsID, expiration: expiration,
                  collapseID: collapseID, payloadSource: .text(body), channelID: nil, requestID: nil,
                  messageStoragePolicy: nil, channelOperation: nil)
    }

    /// The one initializer that sets every field, each once. The others pass their payload source in rather than
    /// assigning `payload` afterwards: building the push and then writing a field of it copied and destroyed it
    /// twice per accepted device push.
    private init(route: Route, deviceToken: String?, topic: String, pushType: PushType, pushTypeInferred: Bool,
                 priority: Priority, apnsID: String?, expiration: Int64?, collapseID: String?,
                 payloadSource: PayloadSource, channelID: String?, requestID: String?, messageStoragePolicy: Int?,
                 channelOperation: Route.ChannelOperation?) {
        self.route = route
        self.deviceToken = deviceToken
        self.topic = topic
        self.pushType = pushType
        self.pushTypeInferred = pushTypeInferred
        self.priority = priority
        self.apnsID = apnsID
        self.expiration = expiration
        self.collapseID = collapseID
        self.payloadSource = payloadSource
        self.channelID = channelID
        self.requestID = requestID
        self.messageStoragePolicy = messageStoragePolicy
        self.channelOperation = channelOperation
    }

    /// Pushes are equal when every field is, `payload` compared as JSON whichever way each holds it.
    public static func == (lhs: AcceptedPush, rhs: AcceptedPush) -> Bool {
        lhs.route == rhs.route && lhs.deviceToken == rhs.deviceToken && lhs.topic == rhs.topic
            && lhs.pushType == rhs.pushType && lhs.pushTypeInferred == rhs.pushTypeInferred
            && lhs.priority == rhs.priority && lhs.apnsID == rhs.apnsID && lhs.expiration == rhs.expiration
            && lhs.collapseID == rhs.collapseID && lhs.channelID == rhs.channelID && lhs.requestID == rhs.requestID
            && lhs.messageStoragePolicy == rhs.messageStoragePolicy && lhs.channelOperation == rhs.channelOperation
            && lhs.payload == rhs.payload
    }

    /// Hashes every field, `payload` as JSON.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(route)
        hasher.combine(deviceToken)
        hasher.combine(topic)
        hasher.combine(pushType)
        hasher.combine(pushTypeInferred)
        hasher.combine(priority)
        hasher.combine(apnsID)
        hasher.combine(expiration)
        hasher.combine(collapseID)
        hasher.combine(payload)
        hasher.combine(channelID)
        hasher.combine(requestID)
        hasher.combine(messageStoragePolicy)
        hasher.combine(channelOperation)
    }
}
