import JSON

/// The rules for channel management (`/1/apps/<bundleID>/channels` and `/all-channels`), once the route and
/// credential have passed.
///
/// Order: bundle ID (as for broadcast) → `apns-request-id` (`BadMessageId`; Apple documents a lowercase
/// UUID, we accept either case) → per operation:
/// - create (`POST …/channels`): body empty → `PayloadEmpty`; over 5120 bytes → `PayloadTooLarge` (no limit is
///   documented; we reuse the broadcast one); not a JSON object → `BadRequestPayload`; an attribute other
///   than `message-storage-policy` / `push-type` → `BadRequestParams`; a policy other than integer 0 or 1 →
///   `BadRequestParams`; a `push-type` other than Live Activity (any letter case) → `InvalidPushType`; no
///   policy → `BadRequestParams` (apns-rules §3.5). A missing `push-type` is accepted (APNSwift omits it; lenient,
///   since Apple does not say it is required).
/// - read, delete: `apns-channel-id` → `MissingChannelId`, `BadChannelId`.
/// - list: nothing more.
/// Whether the channel exists, and the per-app channel limit, are the server's (it owns channel storage).
public enum ChannelRules {
    /// The attributes a channel-creation body may carry.
    public static let creationAttributes: Set<String> = ["message-storage-policy", "push-type"]

    /// Applies the channel-management rules.
    public static func decide(_ request: APNsRequest, route: Route, context: DecisionContext)
        -> Verdict
    {
        guard let bundleID = route.bundleID, let operation = route.channelOperation(method: request.method) else {
            return .rejected(.badPath)
        }
        if let reason = BroadcastRules.checkBundleID(bundleID, credential: context.credential) {
            return .rejected(reason)
        }
        let requestID = request.value("apns-request-id")
        if let requestID, !HeaderRules.isCanonicalUUID(requestID) { return .rejected(.badMessageId) }

        var push = AcceptedPush(route: route, topic: bundleID, pushType: .liveactivity, payload: .object([]),
                                requestID: requestID, channelOperation: operation)
        switch operation {
        case .create:
            let body: JSONValue
            switch PayloadRules.check(request.body, limit: PayloadRules.maximumBroadcastBytes,
                                      malformedReason: .badRequestPayload) {
            case .success(let value): body = value
            case .failure(let reason): return .rejected(reason)
            }
            for key in body.objectKeys ?? [] where !creationAttributes.contains(key) {
                return .rejected(.badRequestParams)
            }
            var policy: Int?
            if let value = body["message-storage-policy"] {
                guard let number = value.integerValue, number == 0 || number == 1 else {
                    return .rejected(.badRequestParams)
                }
                policy = Int(number)
            }
            if let value = body["push-type"] {
                guard let text = value.stringValue, HeaderRules.isLiveActivityPushType(text) else {
                    return .rejected(.invalidPushType)
                }
            }
            guard let policy else { return .rejected(.badRequestParams) }
            push.payload = body
            push.messageStoragePolicy = policy
        case .read, .delete:
            switch HeaderRules.checkChannelID(request.value("apns-channel-id")) {
            case .success(let id): push.channelID = id
            case .failure(let reason): return .rejected(reason)
            }
        case .list:
            break
        }
        return .accepted(push)
    }
}
