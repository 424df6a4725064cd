/// Every `reason` string APNs can put in an error response body (`{"reason": "…"}`), with its HTTP status.
///
/// The raw value is the exact wire spelling, so `APNsReason(rawValue:)` decodes a response body and
/// `rawValue` writes one. It covers the device-push table and the broadcast / channel-management table
/// of Apple's "Handling notification responses" pages, including both spellings of the environment-key
/// reason (Apple's table says `BadEnvironmentKeyIdInToken`; APNs has been reported to send
/// `BadEnvironmentKeyInToken`), so a mock can answer with either and a client can understand both.
public enum APNsReason: String, CaseIterable, Sendable, Hashable, Codable, Error {
    // MARK: 400, device push
    /// `apns-collapse-id` is longer than 64 bytes.
    case badCollapseId = "BadCollapseId"
    /// The device token is malformed, or belongs to the other environment.
    case badDeviceToken = "BadDeviceToken"
    /// `apns-expiration` is not a valid epoch-seconds value.
    case badExpirationDate = "BadExpirationDate"
    /// `apns-id` (or, on the broadcast APIs, `apns-request-id`) is not a canonical UUID.
    case badMessageId = "BadMessageId"
    /// `apns-priority` is not an allowed value for this push.
    case badPriority = "BadPriority"
    /// `apns-topic` is not a usable topic string.
    case badTopic = "BadTopic"
    /// The device token was issued for another topic (another app, or another push-type suffix).
    case deviceTokenNotForTopic = "DeviceTokenNotForTopic"
    /// A header was sent more than once.
    case duplicateHeaders = "DuplicateHeaders"
    /// The connection sat idle too long; Apple does not say exactly what triggers it.
    case idleTimeout = "IdleTimeout"
    /// `apns-push-type` is not a known value, or not one this API accepts.
    case invalidPushType = "InvalidPushType"
    /// `:path` has no device token.
    case missingDeviceToken = "MissingDeviceToken"
    /// `apns-topic` is absent where it is required.
    case missingTopic = "MissingTopic"
    /// The request body is empty.
    case payloadEmpty = "PayloadEmpty"
    /// This connection may not push to the topic (or a suffixed bundle ID was used on the broadcast APIs).
    case topicDisallowed = "TopicDisallowed"

    // MARK: 400, broadcast and channel management
    /// Broadcast push is not enabled for the app.
    case featureNotEnabled = "FeatureNotEnabled"
    /// `apns-channel-id` is absent.
    case missingChannelId = "MissingChannelId"
    /// `apns-channel-id` is not valid base64 or is too long.
    case badChannelId = "BadChannelId"
    /// `apns-channel-id` names no existing channel.
    case channelNotRegistered = "ChannelNotRegistered"
    /// The JSON body has an unknown or invalid attribute.
    case badRequestParams = "BadRequestParams"
    /// The body is not parseable JSON (this model also uses it for unparseable device-push bodies).
    case badRequestPayload = "BadRequestPayload"
    /// `apns-push-type` is absent on a broadcast request.
    case missingPushType = "MissingPushType"
    /// The app already has the maximum number of channels.
    case cannotCreateChannelConfig = "CannotCreateChannelConfig"

    // MARK: 403
    /// The client certificate is not trusted, expired or revoked.
    case badCertificate = "BadCertificate"
    /// The client certificate is for the other environment.
    case badCertificateEnvironment = "BadCertificateEnvironment"
    /// The provider token's `iat` is more than an hour old.
    case expiredProviderToken = "ExpiredProviderToken"
    /// The action is not allowed (this model: a token of another team on a connection bound to a team).
    case forbidden = "Forbidden"
    /// The provider token is malformed, unsigned by a known key, or names the wrong team or key.
    case invalidProviderToken = "InvalidProviderToken"
    /// Neither a client certificate nor a bearer token was presented.
    case missingProviderToken = "MissingProviderToken"
    /// The token's key is unrelated to the key this connection was first used with.
    case unrelatedKeyIdInToken = "UnrelatedKeyIdInToken"
    /// The token's key is restricted to the other environment (Apple's documented spelling).
    case badEnvironmentKeyIdInToken = "BadEnvironmentKeyIdInToken"
    /// The token's key is restricted to the other environment (the spelling APNs reportedly sends).
    case badEnvironmentKeyInToken = "BadEnvironmentKeyInToken"
    /// The token or certificate does not cover the bundle ID in a broadcast / channel path.
    case topicMismatch = "TopicMismatch"

    // MARK: 404, 405
    /// The `:path` is not an APNs endpoint, or the method does not fit the broadcast / channel path.
    case badPath = "BadPath"
    /// The `:method` is not allowed on this endpoint.
    case methodNotAllowed = "MethodNotAllowed"

    // MARK: 410
    /// The device token has expired.
    case expiredToken = "ExpiredToken"
    /// The device token is no longer active for the topic.
    case unregistered = "Unregistered"

    // MARK: 413
    /// The body is larger than the push type allows.
    case payloadTooLarge = "PayloadTooLarge"

    // MARK: 429
    /// The provider token changed more than once in 20 minutes on this connection.
    case tooManyProviderTokenUpdates = "TooManyProviderTokenUpdates"
    /// Too many pushes in a row to one device token.
    case tooManyRequests = "TooManyRequests"

    // MARK: 5xx
    /// APNs had an internal error.
    case internalServerError = "InternalServerError"
    /// APNs is unavailable.
    case serviceUnavailable = "ServiceUnavailable"
    /// The APNs server is shutting down.
    case shutdown = "Shutdown"

    /// The HTTP status APNs sends with this reason.
    public var status: Int {
        switch self {
        case .badCollapseId, .badDeviceToken, .badExpirationDate, .badMessageId, .badPriority, .badTopic,
             .deviceTokenNotForTopic, .duplicateHeaders, .idleTimeout, .invalidPushType, .missingDeviceToken,
             .missingTopic, .payloadEmpty, .topicDisallowed, .featureNotEnabled, .missingChannelId, .badChannelId,
             .channelNotRegistered, .badRequestParams, .badRequestPayload, .missingPushType,
             .cannotCreateChannelConfig:
            return 400
        case .badCertificate, .badCertificateEnvironment, .expiredProviderToken, .forbidden, .invalidProviderToken,
             .missingProviderToken, .unrelatedKeyIdInToken, .badEnvironmentKeyIdInToken, .badEnvironmentKeyInToken,
             .topicMismatch:
            return 403
        case .badPath: return 404
        case .methodNotAllowed: return 405
        case .expiredToken, .unregistered: return 410
        case .payloadTooLarge: return 413
        case .tooManyProviderTokenUpdates, .tooManyRequests: return 429
        case .internalServerError: return 500
        case .serviceUnavailable, .shutdown: return 503
        }
    }

    /// Whether sending the *same* request again, later, can succeed: throttling (429), server trouble (5xx)
    /// and `IdleTimeout` (retry on a fresh connection). Everything else needs the request or credential fixed.
    public var isRetryable: Bool {
        switch status {
        case 429, 500, 503: return true
        default: return self == .idleTimeout
        }
    }

    /// `false` for the reasons Apple says never to retry, even after changes (`BadDeviceToken`,
    /// `DeviceTokenNotForTopic`, `Forbidden`, `ExpiredToken`, `Unregistered`, `PayloadTooLarge`: the token or
    /// push is simply wrong); `true` for the rest, which can be retried once the cause is fixed.
    public var mayRetryAfterFix: Bool {
        switch self {
        case .badDeviceToken, .deviceTokenNotForTopic, .forbidden, .expiredToken, .unregistered, .payloadTooLarge:
            return false
        default:
            return true
        }
    }

    /// Whether APNs counts this as an error against the connection (every 4xx except 410, per Apple).
    public var countsAsConnectionError: Bool { (400..<500).contains(status) && status != 410 }

    /// A sentence telling a user what went wrong and what to do about it.
    public var explanation: String {
        switch self {
        case .badCollapseId: return "apns-collapse-id is longer than 64 bytes; shorten it."
        case .badDeviceToken: return "The device token is not even-length hex, or was issued for the other environment; check the token and the host."
        case .badExpirationDate: return "apns-expiration must be a whole number of seconds since 1970 (0 = do not store)."
        case .badMessageId: return "apns-id (or apns-request-id) must be a UUID like 123e4567-e89b-12d3-a456-4266554400a0."
        case .badPriority: return "apns-priority must be 10, 5 or 1, and background pushes cannot use 10."
        case .badTopic: return "apns-topic is not a valid topic; send the bundle ID plus the push type's suffix."
        case .deviceTokenNotForTopic: return "The token is not registered for this topic; check the bundle ID and that the topic suffix matches apns-push-type."
        case .duplicateHeaders: return "A header was sent more than once; send each header once."
        case .idleTimeout: return "The connection was idle too long; reconnect and resend."
        case .invalidPushType: return "apns-push-type is not a value APNs accepts here; use one of alert, background, location, voip, complication, fileprovider, mdm, liveactivity, pushtotalk, widgets, controls."
        case .missingDeviceToken: return "The path has no device token; POST to /3/device/<hex token>."
        case .missingTopic: return "apns-topic is required here (token auth, or a certificate with several topics); send it."
        case .payloadEmpty: return "The body is empty; send a JSON object such as {\"aps\":{…}}."
        case .topicDisallowed: return "This connection may not push to that topic; check the certificate's topics, or drop the push-type suffix from the bundle ID."
        case .featureNotEnabled: return "Broadcast push is not enabled for this app; enable it on the developer website."
        case .missingChannelId: return "apns-channel-id is required; send the base64 channel ID returned at creation."
        case .badChannelId: return "apns-channel-id is not valid base64 or is too long."
        case .channelNotRegistered: return "No channel has that ID; create one first, or check the environment."
        case .badRequestParams: return "The JSON body has an unknown or invalid attribute."
        case .badRequestPayload: return "The body is not a parseable JSON object."
        case .missingPushType: return "apns-push-type is required; send liveactivity."
        case .cannotCreateChannelConfig: return "The app already has the maximum number of channels; delete some first."
        case .badCertificate: return "The client certificate is not trusted or has expired; use a valid APNs certificate."
        case .badCertificateEnvironment: return "The client certificate is for the other environment; use the matching host or certificate."
        case .expiredProviderToken: return "The provider token's iat is more than an hour old; mint a new token (every 20-60 minutes)."
        case .forbidden: return "This action is not allowed on this connection (for example a token of another team); open a new connection."
        case .invalidProviderToken: return "The provider token is invalid: check alg ES256, kid, iss (team ID), iat and that it is signed with the matching .p8 key."
        case .missingProviderToken: return "No credential: send authorization: bearer <JWT>, or connect with a client certificate."
        case .unrelatedKeyIdInToken: return "This connection was first used with another key; open a new connection for this key."
        case .badEnvironmentKeyIdInToken, .badEnvironmentKeyInToken: return "The token's key is restricted to the other environment; use a key for this environment or the other host."
        case .topicMismatch: return "The credential does not cover the bundle ID in the path."
        case .badPath: return "The path (or method/path combination) is not an APNs endpoint; device pushes go to POST /3/device/<token>."
        case .methodNotAllowed: return "This method is not allowed here; device pushes use POST."
        case .expiredToken: return "The device token has expired; stop sending to it."
        case .unregistered: return "The device token is no longer active for the topic; stop sending to it until the app registers it again."
        case .payloadTooLarge: return "The body is over the limit (4096 bytes, 5120 for VoIP and broadcast); make it smaller."
        case .tooManyProviderTokenUpdates: return "The provider token changed less than 20 minutes after the previous one; reuse tokens for 20-60 minutes."
        case .tooManyRequests: return "Too many pushes to this device token; slow down and retry later."
        case .internalServerError: return "APNs had an internal error; retry later with back-off."
        case .serviceUnavailable: return "APNs is unavailable; retry later with back-off."
        case .shutdown: return "The APNs server is shutting down; reconnect and retry."
        }
    }
}
