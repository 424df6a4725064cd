/// An FCM HTTP v1 error as Google sends it: a `google.rpc.Status` with the HTTP code, the canonical status, a
/// message, and typed details (fcm-rules §4).
///
/// What an Admin SDK does with it, and so what each field must be for the right exception to be raised:
/// firebase-admin-python reads `error.status` for the base class (`INVALID_ARGUMENT` → `InvalidArgumentError`,
/// `UNAVAILABLE` → `UnavailableError`, `INTERNAL` → `InternalError`, …) and then the `errorCode` of the first
/// `details[]` entry whose `@type` is `type.googleapis.com/google.firebase.fcm.v1.FcmError` for the FCM-specific
/// class (`UNREGISTERED` → `UnregisteredError`, `SENDER_ID_MISMATCH` → `SenderIdMismatchError`, `QUOTA_EXCEEDED`
/// → `QuotaExceededError`, `THIRD_PARTY_AUTH_ERROR` → `ThirdPartyAuthError`). The other SDKs do the same.
public struct FCMError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The HTTP status of the answer (`error.code`).
    public var httpStatus: Int
    /// The canonical status (`error.status`).
    public var status: Status
    /// The sentence Google sends (`error.message`).
    public var message: String
    /// The typed details (`error.details`), in the order they are rendered.
    public var details: [Detail]

    /// Makes an error.
    public init(httpStatus: Int, status: Status, message: String, details: [Detail] = []) {
        self.httpStatus = httpStatus
        self.status = status
        self.message = message
        self.details = details
    }

    /// The canonical `google.rpc.Code` names FCM answers with.
    public enum Status: String, Sendable, Hashable, CaseIterable {
        /// 400: the request or message is malformed.
        case invalidArgument = "INVALID_ARGUMENT"
        /// 401: no, or no valid, credential (also APNs refusing FCM's credential, with `THIRD_PARTY_AUTH_ERROR`).
        case unauthenticated = "UNAUTHENTICATED"
        /// 403: the credential may not do this (another project's token; `SENDER_ID_MISMATCH`).
        case permissionDenied = "PERMISSION_DENIED"
        /// 404: the registration is gone (`UNREGISTERED`), or the path does not exist.
        case notFound = "NOT_FOUND"
        /// 429: a quota is exhausted (`QUOTA_EXCEEDED`).
        case resourceExhausted = "RESOURCE_EXHAUSTED"
        /// 500: FCM failed.
        case `internal` = "INTERNAL"
        /// 503: FCM (or APNs behind it) is overloaded or down.
        case unavailable = "UNAVAILABLE"
        /// 405 here: a known path asked with another method (the mock's choice of code, fcm-rules §4.4).
        case unimplemented = "UNIMPLEMENTED"
    }

    /// The `errorCode` of an `FcmError` detail (firebase.google.com/docs/reference/fcm/rest/v1/ErrorCode).
    public enum ErrorCode: String, Sendable, Hashable, CaseIterable {
        /// No more information is available.
        case unspecifiedError = "UNSPECIFIED_ERROR"
        /// 400: a bad token, package name, size, data key, TTL or other parameter.
        case invalidArgument = "INVALID_ARGUMENT"
        /// 404: the app instance was unregistered from FCM.
        case unregistered = "UNREGISTERED"
        /// 403: the token belongs to another sender (project).
        case senderIDMismatch = "SENDER_ID_MISMATCH"
        /// 429: a sending limit for the target was exceeded.
        case quotaExceeded = "QUOTA_EXCEEDED"
        /// 503: the server is overloaded.
        case unavailable = "UNAVAILABLE"
        /// 500: an unknown internal error.
        case `internal` = "INTERNAL"
        /// 401: the APNs certificate or key, or the web push key, was refused.
        case thirdPartyAuthError = "THIRD_PARTY_AUTH_ERROR"
    }

    /// One `google.rpc.BadRequest.FieldViolation`: which field, and why.
    public struct FieldViolation: Sendable, Hashable {
        /// The field's path, e.g. `message.data[0].value`; `nil` for the request as a whole (Google leaves it out).
        public var field: String?
        /// What is wrong with it.
        public var description: String

        /// Makes a violation.
        public init(field: String?, description: String) {
            self.field = field
            self.description = description
        }
    }

    /// One entry of `error.details`, each rendered with its `@type`.
    public enum Detail: Sendable, Hashable {
        /// `type.googleapis.com/google.firebase.fcm.v1.FcmError` `{errorCode}`: what the SDKs map to a class.
        case fcmError(ErrorCode)
        /// `type.googleapis.com/google.rpc.BadRequest` `{fieldViolations}` (Google sends it with no violations too).
        case badRequest([FieldViolation])
        /// `type.googleapis.com/google.firebase.fcm.v1.ApnsError` `{statusCode, reason}`: APNs's own answer to the
        /// request FCM made for an iOS message.
        case apnsError(statusCode: Int, reason: String?)
        /// `type.googleapis.com/google.rpc.ErrorInfo` `{reason, domain, metadata}`, as Google's front end adds to
        /// 401 and 403 answers.
        case errorInfo(reason: String, domain: String, metadata: [FCMKeyValue])
    }

    /// The `errorCode` of the first `FcmError` detail, as the SDKs find it.
    public var errorCode: ErrorCode? {
        for detail in details {
            if case .fcmError(let code) = detail { return code }
        }
        return nil
    }

    /// Every field violation of every `BadRequest` detail.
    public var fieldViolations: [FieldViolation] {
        details.flatMap { detail -> [FieldViolation] in
            if case .badRequest(let violations) = detail { return violations }
            return []
        }
    }

    /// The APNs answer carried as an `ApnsError` detail, if any.
    public var apnsAnswer: (statusCode: Int, reason: String?)? {
        for detail in details {
            if case .apnsError(let status, let reason) = detail { return (status, reason) }
        }
        return nil
    }

    /// "400 INVALID_ARGUMENT (INVALID_ARGUMENT): The registration token is not a valid FCM registration token".
    public var description: String {
        let code = errorCode.map { " (\($0.rawValue))" } ?? ""
        return "\(httpStatus) \(status.rawValue)\(code): \(message)"
    }
}
