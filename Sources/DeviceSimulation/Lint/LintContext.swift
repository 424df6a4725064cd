import APNsModel
/// The push being linted, and the findings gathered so far. Each check group reads it and appends.
struct LintContext {
    /// The whole payload.
    let payload: JSONValue
    /// `apns-push-type`, or the type the topic's suffix names when the header is absent.
    let pushType: PushType?
    /// `apns-priority`, `nil` when absent.
    let priority: Priority?
    /// `apns-topic`, `nil` when absent.
    let topic: String?
    /// The body's size in bytes.
    let payloadBytes: Int
    /// `aps` when it is a dictionary (looked up once: every check group reads it).
    let aps: JSONValue?
    /// The findings so far, in check order.
    private(set) var findings: [LintFinding] = []

    init(payload: JSONValue, pushType: PushType?, priority: Priority?, topic: String?, payloadBytes: Int) {
        self.payload = payload
        self.pushType = pushType ?? topic.flatMap(DeliverySimulator.inferredPushType(topic:))
        self.priority = priority
        self.topic = topic
        self.payloadBytes = payloadBytes
        if let aps = payload["aps"], aps.objectMembers != nil {
            self.aps = aps
        } else {
            aps = nil
        }
    }

    /// The parsed `aps`, when it is a dictionary. Read only where a rule needs more than a key or two: it looks up
    /// a dozen keys.
    var content: ApsFacts? { aps.flatMap(ApsFacts.init(aps:)) }

    /// Whether this is a Live Activity push (by type, or an untyped push whose `aps` has an `event`).
    var isLiveActivity: Bool { pushType == .liveactivity || (pushType == nil && aps?["event"] != nil) }

    /// Records a finding.
    mutating func report(_ rule: LintRule, _ message: String, at path: String) {
        findings.append(LintFinding(rule, message: message, path: path))
    }
}

extension JSONValue {
    /// A short rendering of a scalar for messages: strings quoted, others by value or type.
    var lintDescription: String {
        switch self {
        case .string(let s): return "\"\(s)\""
        case .integer(let i): return String(i)
        case .double(let d): return String(d)
        case .bool(let b): return String(b)
        case .null: return "null"
        default: return "a JSON \(typeName)"
        }
    }
}
