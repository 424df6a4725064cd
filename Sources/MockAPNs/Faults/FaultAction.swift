import APNsModel

/// What a fault rule does to a request it matches.
public enum FaultAction: Sendable, Equatable {
    /// Answer with this status and APNs reason instead of the real verdict.
    case status(Int, reason: String)
    /// Answer normally, but only after this many milliseconds (the loop is not blocked).
    case delay(milliseconds: Int)
    /// Never answer: the stream stays open until the client gives up or the connection closes.
    case stall
    /// Reset the stream with RST_STREAM and this HTTP/2 error code.
    case reset(errorCode: UInt32)
    /// Send GOAWAY with `{"reason": …}` debug data and this error code, then close the connection.
    case goAway(reason: String, errorCode: UInt32)
    /// Drop the TCP connection at once, without answering.
    case drop
    /// At the FCM front door (`serve --fcm`): answer `messages:send` with this FCM error status (one of
    /// ``fcmErrorStatuses``) before delivering anything. Such a rule matches on the FCM project and registration
    /// token only, never an APNs request.
    case fcmError(status: String)

    /// The FCM error statuses an `fcm_error` action may answer (503, 500 and 429 over HTTP): the server-side errors a
    /// sender must retry or back off from (fcm-rules §4.2).
    public static let fcmErrorStatuses = ["UNAVAILABLE", "INTERNAL", "QUOTA_EXCEEDED"]

    /// The JSON form, e.g. `{"type":"status","status":503,"reason":"ServiceUnavailable"}`,
    /// `{"type":"delay","ms":250}`, `{"type":"stall"}`, `{"type":"reset","error_code":2}`,
    /// `{"type":"goaway","reason":"Shutdown","error_code":0}`, `{"type":"drop"}`, `{"type":"fcm_error","status":"UNAVAILABLE"}`.
    public func jsonValue() -> JSONValue {
        typealias M = JSONValue.JSONMember
        switch self {
        case .status(let status, let reason):
            return .object([M("type", .string("status")), M("status", .integer(Int64(status))), M("reason", .string(reason))])
        case .delay(let ms):
            return .object([M("type", .string("delay")), M("ms", .integer(Int64(ms)))])
        case .stall:
            return .object([M("type", .string("stall"))])
        case .reset(let code):
            return .object([M("type", .string("reset")), M("error_code", .integer(Int64(code)))])
        case .goAway(let reason, let code):
            return .object([M("type", .string("goaway")), M("reason", .string(reason)), M("error_code", .integer(Int64(code)))])
        case .drop:
            return .object([M("type", .string("drop"))])
        case .fcmError(let status):
            return .object([M("type", .string("fcm_error")), M("status", .string(status))])
        }
    }

    /// Reads the JSON form.
    public init(json: JSONValue) throws(ConfigurationError) {
        let kinds = "status, delay, stall, reset, goaway, drop or fcm_error"
        guard let type = json["type"]?.stringValue else { throw .invalidFault("an action needs a \"type\": \(kinds)") }
        switch type {
        case "status":
            guard let status = json["status"]?.integerValue, (100...599).contains(status) else {
                throw .invalidFault("action \"status\" needs \"status\": an HTTP status from 100 to 599")
            }
            let reason = json["reason"]?.stringValue
                ?? APNsReason.allCases.first(where: { $0.status == Int(status) })?.rawValue ?? "InternalServerError"
            self = .status(Int(status), reason: reason)
        case "delay":
            guard let ms = json["ms"]?.integerValue, ms >= 0, ms <= 600_000 else {
                throw .invalidFault("action \"delay\" needs \"ms\": milliseconds from 0 to 600000")
            }
            self = .delay(milliseconds: Int(ms))
        case "stall":
            self = .stall
        case "reset":
            self = .reset(errorCode: try Self.errorCode(json["error_code"], default: 2))
        case "goaway":
            self = .goAway(reason: json["reason"]?.stringValue ?? "Shutdown",
                           errorCode: try Self.errorCode(json["error_code"], default: 0))
        case "drop":
            self = .drop
        case "fcm_error":
            guard let status = json["status"]?.stringValue, Self.fcmErrorStatuses.contains(status) else {
                throw .invalidFault("action \"fcm_error\" needs \"status\": \(Self.fcmErrorStatuses.joined(separator: ", "))")
            }
            self = .fcmError(status: status)
        default:
            throw .invalidFault("unknown action type \"\(type)\"; use \(kinds)")
        }
    }

    /// Whether the action belongs to the FCM front door (``fcmError(status:)``).
    public var isFCM: Bool {
        if case .fcmError = self { return true }
        return false
    }

    /// An HTTP/2 error code: absent → `fallback`; otherwise a whole number from 0 to 2^32-1 (HTTP/2 codes are
    /// 32 bits; unknown ones are allowed). A fraction, a negative or larger number is refused, not clamped.
    private static func errorCode(_ value: JSONValue?, default fallback: UInt32) throws(ConfigurationError) -> UInt32 {
        guard let value else { return fallback }
        guard let number = value.integerValue, let code = UInt32(exactly: number) else {
            throw .invalidFault("\"error_code\" is an HTTP/2 error code: a whole number from 0 to 4294967295")
        }
        return code
    }
}
