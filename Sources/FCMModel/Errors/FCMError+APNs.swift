/// APNs's answer to the request FCM made for an iOS message, as FCM reports it to the sender (fcm-rules §4.5).
///
/// | APNs | FCM |
/// |---|---|
/// | 200 | success (`nil`) |
/// | 410 `Unregistered`, `ExpiredToken` | 404 `NOT_FOUND` / `UNREGISTERED` |
/// | 403 (every reason: the provider token or certificate) | 401 `UNAUTHENTICATED` / `THIRD_PARTY_AUTH_ERROR` |
/// | 400 `BadDeviceToken` and every other 400 | 400 `INVALID_ARGUMENT` |
/// | 413 `PayloadTooLarge` | 400 `INVALID_ARGUMENT` |
/// | 429 | 429 `RESOURCE_EXHAUSTED` / `QUOTA_EXCEEDED` |
/// | 503 | 503 `UNAVAILABLE` |
/// | 500, and anything else (404 `BadPath`, 405: FCM's own request was wrong) | 500 `INTERNAL` |
///
/// Every error carries APNs's status and reason as an `ApnsError` detail beside the `FcmError`.
extension FCMError {
    /// The FCM error for APNs's `status` and `reason` (the `reason` of its JSON body), or `nil` for 200.
    public static func fromAPNs(status: Int, reason: String?) -> FCMError? {
        guard status != 200 else { return nil }
        var error: FCMError
        switch status {
        case 410:
            error = .unregistered()
        case 403:
            error = .thirdPartyAuthError()
        case 400:
            error = FCMError(httpStatus: 400, status: .invalidArgument,
                             message: reason == "BadDeviceToken" ? "The APNs device token of this registration is not valid for the app's environment."
                                 : "Request contains an invalid argument.",
                             details: [.fcmError(.invalidArgument)])
        case 413:
            error = FCMError(httpStatus: 400, status: .invalidArgument, message: "APNs message is too big",
                             details: [.fcmError(.invalidArgument)])
        case 429:
            error = .quotaExceeded("Message rate exceeded for the device.")
        case 503:
            error = .unavailable()
        default:
            error = .internalError()
        }
        error.details.append(.apnsError(statusCode: status, reason: reason))
        return error
    }
}
