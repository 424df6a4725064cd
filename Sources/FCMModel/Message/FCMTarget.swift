/// Where a message goes (fcm-rules §3.2): exactly one of `token`, `topic`, `condition` and `fid`, a protobuf
/// oneof named `target`.
public enum FCMTarget: Sendable, Hashable {
    /// A registration token (`<fid>:APA91b…`), parsed, so checked for shape (fcm-rules §3.3).
    case token(FCMRegistrationToken)
    /// A topic name without `/topics/` (fcm-rules §3.4).
    case topic(String)
    /// A topic condition (fcm-rules §3.5).
    case condition(FCMCondition)
    /// A Firebase installation id. Its shape is not checked: Google answers a malformed one as an unknown one,
    /// 404 `UNREGISTERED` (firebase-admin-python's integration test sends `fid='not-a-fid'`).
    case fid(String)

    /// The member's name: `token`, `topic`, `condition` or `fid`.
    public var kind: String {
        switch self {
        case .token: return "token"
        case .topic: return "topic"
        case .condition: return "condition"
        case .fid: return "fid"
        }
    }

    /// The member's value as sent (a condition's text).
    public var value: String {
        switch self {
        case .token(let token): return token.token
        case .topic(let topic): return topic
        case .condition(let condition): return condition.text
        case .fid(let fid): return fid
        }
    }

    /// Whether the message goes to every device of a topic or condition (the topic size limit applies,
    /// fcm-rules §3.7).
    public var isFanOut: Bool {
        switch self {
        case .topic, .condition: return true
        case .token, .fid: return false
        }
    }
}
