import JSON

/// Writing an ``FCMError`` as the body Google sends (fcm-rules §4.1):
///
/// ```json
/// {"error": {"code": 400, "message": "…", "status": "INVALID_ARGUMENT",
///            "details": [{"@type": "type.googleapis.com/google.firebase.fcm.v1.FcmError", "errorCode": "INVALID_ARGUMENT"}]}}
/// ```
///
/// `details` is left out when there are none, as Google does for its front end's 401.
extension FCMError {
    /// The `@type` of an `FcmError` detail.
    public static let fcmErrorType = "type.googleapis.com/google.firebase.fcm.v1.FcmError"
    /// The `@type` of a `BadRequest` detail.
    public static let badRequestType = "type.googleapis.com/google.rpc.BadRequest"
    /// The `@type` of an `ApnsError` detail.
    public static let apnsErrorType = "type.googleapis.com/google.firebase.fcm.v1.ApnsError"
    /// The `@type` of an `ErrorInfo` detail.
    public static let errorInfoType = "type.googleapis.com/google.rpc.ErrorInfo"

    /// The whole body, `{"error": {…}}`.
    public var json: JSONValue {
        var error: [JSONValue.JSONMember] = [
            .init("code", .integer(Int64(httpStatus))),
            .init("message", .string(message)),
            .init("status", .string(status.rawValue)),
        ]
        if !details.isEmpty { error.append(.init("details", .array(details.map(\.json)))) }
        return .object([.init("error", .object(error))])
    }

    /// The body as UTF-8 bytes: indented, with a final newline, as Google's front end writes it.
    public func jsonBody() -> [UInt8] {
        json.prettyBytes() + [UInt8(ascii: "\n")]
    }
}

extension FCMError.Detail {
    /// The detail as JSON, `@type` first.
    public var json: JSONValue {
        switch self {
        case .fcmError(let code):
            return .object([.init("@type", .string(FCMError.fcmErrorType)), .init("errorCode", .string(code.rawValue))])
        case .badRequest(let violations):
            var members: [JSONValue.JSONMember] = [.init("@type", .string(FCMError.badRequestType))]
            if !violations.isEmpty {
                members.append(.init("fieldViolations", .array(violations.map { violation in
                    var fields: [JSONValue.JSONMember] = []
                    if let field = violation.field { fields.append(.init("field", .string(field))) }
                    fields.append(.init("description", .string(violation.description)))
                    return .object(fields)
                })))
            }
            return .object(members)
        case .apnsError(let statusCode, let reason):
            var members: [JSONValue.JSONMember] = [
                .init("@type", .string(FCMError.apnsErrorType)), .init("statusCode", .integer(Int64(statusCode))),
            ]
            if let reason { members.append(.init("reason", .string(reason))) }
            return .object(members)
        case .errorInfo(let reason, let domain, let metadata):
            var members: [JSONValue.JSONMember] = [
                .init("@type", .string(FCMError.errorInfoType)), .init("reason", .string(reason)), .init("domain", .string(domain)),
            ]
            if !metadata.isEmpty {
                members.append(.init("metadata", .object(metadata.map { .init($0.key, .string($0.value)) })))
            }
            return .object(members)
        }
    }
}
