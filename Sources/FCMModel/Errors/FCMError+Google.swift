/// The errors FCM and Google's front end answer, with Google's wording where it is known (fcm-rules §4).
///
/// Which detail each carries follows what Google sends: errors of the JSON front end (bad JSON, unknown fields,
/// wrong types) carry a `BadRequest` only, as in Google's first example on the error-codes page; errors of FCM
/// itself carry an `FcmError`, which is what the Admin SDKs read; 401 and 403 of the front end carry an
/// `ErrorInfo`.
extension FCMError {
    // MARK: Google's front end (fcm-rules §2.6, §4.4)

    /// The `ErrorInfo` metadata of a `messages:send` call.
    private static let sendMethodMetadata = [
        FCMKeyValue("method", "google.firebase.fcm.v1.FcmService.SendMessage"), FCMKeyValue("service", "fcm.googleapis.com"),
    ]

    /// 401 `UNAUTHENTICATED`: no `Authorization: Bearer …` header.
    public static func missingCredential() -> FCMError {
        FCMError(httpStatus: 401, status: .unauthenticated,
                 message: "Request is missing required authentication credential. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.",
                 details: [.errorInfo(reason: "CREDENTIALS_MISSING", domain: "googleapis.com", metadata: sendMethodMetadata)])
    }

    /// 401 `UNAUTHENTICATED`: a bearer token that was never issued, or has expired. The Admin SDKs refresh their
    /// token once and retry on this answer.
    public static func invalidCredential() -> FCMError {
        FCMError(httpStatus: 401, status: .unauthenticated,
                 message: "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.",
                 details: [.errorInfo(reason: "ACCESS_TOKEN_TYPE_UNSUPPORTED", domain: "googleapis.com", metadata: sendMethodMetadata)])
    }

    /// 403 `PERMISSION_DENIED`: a valid token of another project (IAM's answer: the account lacks
    /// `cloudmessaging.messages.create` on `project`, or the project does not exist).
    public static func permissionDenied(project: String) -> FCMError {
        FCMError(httpStatus: 403, status: .permissionDenied,
                 message: "Permission 'cloudmessaging.messages.create' denied on resource '//cloudresourcemanager.googleapis.com/projects/\(project)' (or it may not exist).",
                 details: [.errorInfo(reason: "IAM_PERMISSION_DENIED", domain: "cloudresourcemanager.googleapis.com",
                                      metadata: [FCMKeyValue("permission", "cloudmessaging.messages.create"),
                                                 FCMKeyValue("resource", "projects/\(project)")])])
    }

    /// 403 `PERMISSION_DENIED`: a token granted for scopes that do not include messaging. Google grants any valid
    /// scope and refuses the send; the mock refuses such a grant already (fcm-rules §2.4), so it answers this only
    /// when a server chooses to grant first.
    public static func insufficientScopes() -> FCMError {
        FCMError(httpStatus: 403, status: .permissionDenied, message: "Request had insufficient authentication scopes.",
                 details: [.errorInfo(reason: "ACCESS_TOKEN_SCOPE_INSUFFICIENT", domain: "googleapis.com", metadata: sendMethodMetadata)])
    }

    /// 404 `NOT_FOUND`: a path none of the served APIs has.
    public static func notFound(path: String) -> FCMError {
        FCMError(httpStatus: 404, status: .notFound, message: "The requested URL \(path) was not found on this server.")
    }

    /// 405: a known path asked with another method than `POST` (the mock's status name, fcm-rules §4.4).
    public static func methodNotAllowed(path: String) -> FCMError {
        FCMError(httpStatus: 405, status: .unimplemented, message: "Method Not Allowed: \(path) answers POST only.")
    }

    /// 400 `INVALID_ARGUMENT`: a body sent with a content type other than JSON.
    public static func invalidContentType(_ contentType: String) -> FCMError {
        FCMError(httpStatus: 400, status: .invalidArgument,
                 message: "Invalid Content-Type \"\(contentType)\": the body of messages:send must be application/json.",
                 details: [.badRequest([FieldViolation(field: nil, description: "Content-Type must be application/json")])])
    }

    /// 400 `INVALID_ARGUMENT`: a body larger than the front end reads.
    public static func payloadTooLarge(limit: Int) -> FCMError {
        FCMError(httpStatus: 400, status: .invalidArgument, message: "Request payload size exceeds the limit: \(limit) bytes.",
                 details: [.badRequest([FieldViolation(field: nil, description: "Request payload size exceeds the limit: \(limit) bytes.")])])
    }

    /// 400 `INVALID_ARGUMENT` from the JSON front end, with one violation per problem (fcm-rules §3.1): the
    /// message joins their descriptions with newlines, as Google's does.
    public static func invalidJSON(_ violations: [FieldViolation]) -> FCMError {
        FCMError(httpStatus: 400, status: .invalidArgument, message: violations.map(\.description).joined(separator: "\n"),
                 details: [.badRequest(violations)])
    }

    // MARK: FCM (fcm-rules §3, §4.2)

    /// 400 `INVALID_ARGUMENT` of FCM's own checks: an `FcmError` detail, and a `BadRequest` naming `field` when
    /// there is one.
    public static func invalidArgument(_ message: String, field: String? = nil, description: String? = nil) -> FCMError {
        var details: [Detail] = [.fcmError(.invalidArgument)]
        if let field { details.append(.badRequest([FieldViolation(field: field, description: description ?? message)])) }
        return FCMError(httpStatus: 400, status: .invalidArgument, message: message, details: details)
    }

    /// 400 `INVALID_ARGUMENT`: a `token` that is not shaped like a registration token (Google's wording, from the
    /// error-codes page's second example).
    public static func invalidRegistrationToken() -> FCMError {
        FCMError(httpStatus: 400, status: .invalidArgument, message: "The registration token is not a valid FCM registration token",
                 details: [.fcmError(.invalidArgument)])
    }

    /// 404 `NOT_FOUND` / `UNREGISTERED`: the token or installation is not (or no longer) registered.
    public static func unregistered() -> FCMError {
        FCMError(httpStatus: 404, status: .notFound, message: "Requested entity was not found.", details: [.fcmError(.unregistered)])
    }

    /// 403 `PERMISSION_DENIED` / `SENDER_ID_MISMATCH`: the token was registered for another project.
    public static func senderIDMismatch() -> FCMError {
        FCMError(httpStatus: 403, status: .permissionDenied, message: "SenderId mismatch", details: [.fcmError(.senderIDMismatch)])
    }

    /// 429 `RESOURCE_EXHAUSTED` / `QUOTA_EXCEEDED`: too many messages to one device (or for the project).
    public static func quotaExceeded(_ message: String = "Quota exceeded for the message target.") -> FCMError {
        FCMError(httpStatus: 429, status: .resourceExhausted, message: message, details: [.fcmError(.quotaExceeded)])
    }

    /// 503 `UNAVAILABLE` / `UNAVAILABLE`: FCM could not deliver now (APNs did not answer, or answered 503).
    public static func unavailable() -> FCMError {
        FCMError(httpStatus: 503, status: .unavailable, message: "The service is currently unavailable.", details: [.fcmError(.unavailable)])
    }

    /// 500 `INTERNAL` / `INTERNAL`.
    public static func internalError() -> FCMError {
        FCMError(httpStatus: 500, status: .internal, message: "Internal error encountered.", details: [.fcmError(.internal)])
    }

    /// 401 `UNAUTHENTICATED` / `THIRD_PARTY_AUTH_ERROR`: APNs refused the key or certificate FCM signs with.
    public static func thirdPartyAuthError() -> FCMError {
        FCMError(httpStatus: 401, status: .unauthenticated, message: "Auth error from APNS or Web Push Service",
                 details: [.fcmError(.thirdPartyAuthError)])
    }
}
