import JSON

/// The rules for `POST /4/broadcasts/apps/<bundleID>` (a Live Activity broadcast) and the bundle-ID rules
/// shared with channel management, once the route and credential have passed.
///
/// Order: bundle ID (`TopicDisallowed` for a suffixed ID, `TopicMismatch` when a certificate does not cover
/// it) → `apns-channel-id` (`MissingChannelId`, `BadChannelId`) → `apns-push-type` (`MissingPushType`,
/// `InvalidPushType`) → `apns-request-id` (`BadMessageId`) → `apns-expiration`, required (`BadExpirationDate`)
/// → `apns-priority` (`BadPriority`) → body (`PayloadEmpty`, `PayloadTooLarge` over 5120 bytes,
/// `BadRequestPayload`). Same shape as device pushes: who/where first, then headers, then the body.
///
/// Channel existence (`ChannelNotRegistered`) and the "non-zero expiration on a no-storage channel is
/// `BadExpirationDate`" rule need the channel registry, which the server owns; it applies them after an
/// `.accepted` verdict.
public enum BroadcastRules {
    /// Applies the broadcast-send rules.
    public static func decide(_ request: APNsRequest, bundleID: String, context: DecisionContext)
        -> Verdict
    {
        if let reason = checkBundleID(bundleID, credential: context.credential) { return .rejected(reason) }

        let channelID: String
        switch HeaderRules.checkChannelID(request.value("apns-channel-id")) {
        case .success(let id): channelID = id
        case .failure(let reason): return .rejected(reason)
        }

        guard let pushType = request.value("apns-push-type") else { return .rejected(.missingPushType) }
        guard HeaderRules.isLiveActivityPushType(pushType) else { return .rejected(.invalidPushType) }

        let requestID = request.value("apns-request-id")
        if let requestID, !HeaderRules.isCanonicalUUID(requestID) { return .rejected(.badMessageId) }

        guard let expirationHeader = request.value("apns-expiration"),
              let expiration = HeaderRules.parseExpiration(expirationHeader)
        else { return .rejected(.badExpirationDate) }

        // Apple's table marks apns-priority required; we default a missing one to 10 (lenient, as for device
        // pushes) and refuse only bad values.
        let priority: Priority
        if let header = request.value("apns-priority") {
            guard let parsed = HeaderRules.parsePriority(header) else { return .rejected(.badPriority) }
            priority = parsed
        } else {
            priority = .default
        }

        let payload: JSONValue
        switch PayloadRules.check(request.body, limit: PayloadRules.maximumBroadcastBytes,
                                  malformedReason: .badRequestPayload) {
        case .success(let value): payload = value
        case .failure(let reason): return .rejected(reason)
        }

        return .accepted(AcceptedPush(
            route: .broadcast(bundleID: bundleID), topic: bundleID, pushType: .liveactivity, priority: priority,
            expiration: expiration, payload: payload, channelID: channelID, requestID: requestID))
    }

    /// The bundle ID in a broadcast or channel path: a push-type suffix → `TopicDisallowed` (Apple: the path
    /// takes the bare bundle ID); a certificate that does not cover the bundle ID → `403 TopicMismatch`.
    /// Token auth: team keys cover every bundle ID of the team (the model knows no team's app list); a
    /// topic-specific key only its own → `403 TopicMismatch`.
    public static func checkBundleID(_ bundleID: String, credential: ProviderCredential) -> APNsReason? {
        if TopicRules.suffix(of: bundleID) != nil || !TopicRules.isWellFormed(bundleID) { return .topicDisallowed }
        if case .certificate(let certificate) = credential, !certificate.appTopics.contains(bundleID) {
            return .topicMismatch
        }
        // A topic-specific key covers only its bundle IDs, like a certificate (see `TrustedKey`).
        if case .token(let facts) = credential, let key = facts.key, !key.covers(topic: bundleID) {
            return .topicMismatch
        }
        return nil
    }
}
