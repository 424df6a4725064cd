/// The rules for `POST /3/device/<token>` once the route and credential have passed.
///
/// Order, and why:
/// 1. device token format (`BadDeviceToken`): the path is the first thing after the credential;
/// 2. push type (`InvalidPushType`), inferred when absent: the topic suffix, priority rule and size limit all
///    depend on it;
/// 3. topic (`MissingTopic`, `BadTopic`, `TopicDisallowed`, `DeviceTokenNotForTopic`): needs the push type;
/// 4. `apns-id` (`BadMessageId`), 5. `apns-expiration` (`BadExpirationDate`), 6. `apns-priority`
///    (`BadPriority`, needs the push type), 7. `apns-collapse-id` (`BadCollapseId`): the remaining headers,
///    each a pure format check;
/// 8. body empty (`PayloadEmpty`), 9. body size (`PayloadTooLarge`, on raw bytes, before parsing: a body
///    over the limit is refused whatever it holds), 10. body is a JSON object (`malformedPayloadReason`).
/// Headers before the body because a server can refuse a request from its HEADERS frame alone.
public enum DevicePushRules {
    /// Applies the device-push rules; the route and credential are already accepted.
    public static func decide(_ request: APNsRequest, token: String, context: DecisionContext) -> Verdict {
        decide(request, headers: HeaderIndex(request.headers), token: token, context: context)
    }

    /// `decide` with the request's headers already indexed (`RequestDecider` reads them once for every rule).
    static func decide(_ request: APNsRequest, headers: HeaderIndex, token: String, context: DecisionContext)
        -> Verdict
    {
        guard DeviceToken.isValid(token) else { return .rejected(.badDeviceToken) }

        let facts: DeviceHeaderFacts
        var inferred = false
        switch checkHeaders(request, headers: headers, context: context, inferred: &inferred) {
        case .success(let checked): facts = checked
        case .failure(let reason): return .rejected(reason)
        }

        if let reason = PayloadRules.checkText(request.body, limit: facts.pushType.maximumPayloadBytes,
                                               malformedReason: context.malformedPayloadReason) {
            return .rejected(reason)
        }

        // The payload stays the body's text, parsed when someone reads `payload`.
        return .accepted(AcceptedPush(
            route: .device(token: token), deviceToken: token, topic: facts.topic, pushType: facts.pushType,
            pushTypeInferred: inferred, priority: facts.priority, apnsID: facts.apnsID, expiration: facts.expiration,
            collapseID: facts.collapseID, objectBody: request.body))
    }

    /// Steps 2–7: every rule that reads headers (and, only to infer a missing push type, the body).
    private static func checkHeaders(_ request: APNsRequest, headers: HeaderIndex, context: DecisionContext,
                                     inferred: inout Bool) -> Result<DeviceHeaderFacts, APNsReason>
    {
        let topicHeader = headers.topic
        let pushType: PushType
        if let header = headers.pushType {
            guard let parsed = HeaderRules.parsePushType(header) else { return .failure(.invalidPushType) }
            pushType = parsed
        } else {
            var topicHint = topicHeader
            if topicHint == nil, case .certificate(let certificate) = context.credential,
               certificate.coveredTopics.count == 1 {
                topicHint = certificate.coveredTopics[0]
            }
            pushType = PushTypeInference.infer(topic: topicHint, body: request.body)
            inferred = true
        }

        let topic: String
        switch TopicRules.resolve(topicHeader: topicHeader, pushType: pushType, credential: context.credential) {
        case .success(let resolved): topic = resolved
        case .failure(let reason): return .failure(reason)
        }

        let apnsID = headers.apnsID
        if let reason = HeaderRules.checkAPNsID(apnsID) { return .failure(reason) }

        var expiration: Int64?
        if let header = headers.expiration {
            guard let parsed = HeaderRules.parseExpiration(header) else { return .failure(.badExpirationDate) }
            expiration = parsed
        }

        let priority: Priority
        switch HeaderRules.checkPriority(headers.priority, pushType: pushType) {
        case .success(let value): priority = value
        case .failure(let reason): return .failure(reason)
        }

        let collapseID = headers.collapseID
        if let reason = HeaderRules.checkCollapseID(collapseID) { return .failure(reason) }

        return .success(DeviceHeaderFacts(pushType: pushType, topic: topic, apnsID: apnsID, expiration: expiration,
                                          priority: priority, collapseID: collapseID))
    }
}
