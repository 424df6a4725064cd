import APNsModel

/// One scripted misbehaviour: which requests it matches, how often it fires, and what it does.
///
/// JSON form (`--faults FILE.json`, `POST /api/v1/faults`):
/// `{"name": "apns down", "match": {"token": "…", "topic": "…", "push_type": "alert", "path": "/3/device/"},
///   "count": 2, "probability": 0.5, "action": {"type": "status", "status": 503}}`.
/// Every `match` field is optional (`path` matches as a prefix); `count` limits how many matches fire
/// (default: no limit); `probability` (0…1, default 1) is drawn from the plan's seeded generator.
///
/// An `fcm_error` rule is the FCM front door's (`serve --fcm`): it matches on `project` and `registration_token`
/// (both optional) and never on an APNs request; no other rule has those fields.
public struct FaultRule: Sendable, Equatable {
    /// A name shown in records (`faults`) and listings; defaults to the action's type.
    public var name: String
    /// Device token to match (case-insensitive).
    public var token: String?
    /// `apns-topic` to match.
    public var topic: String?
    /// `apns-push-type` to match.
    public var pushType: String?
    /// `:path` prefix to match.
    public var pathPrefix: String?
    /// FCM project to match (an `fcm_error` rule).
    public var project: String?
    /// FCM registration token to match (an `fcm_error` rule).
    public var registrationToken: String?
    /// How many matching requests fire the rule; nil = every one.
    public var count: Int?
    /// The chance that a matching request fires the rule.
    public var probability: Double
    /// What happens.
    public var action: FaultAction

    /// Makes a rule.
    public init(name: String? = nil, token: String? = nil, topic: String? = nil, pushType: String? = nil,
                pathPrefix: String? = nil, project: String? = nil, registrationToken: String? = nil, count: Int? = nil,
                probability: Double = 1, action: FaultAction) {
        self.name = name ?? (action.jsonValue()["type"]?.stringValue ?? "fault")
        self.token = token
        self.topic = topic
        self.pushType = pushType
        self.pathPrefix = pathPrefix
        self.project = project
        self.registrationToken = registrationToken
        self.count = count
        self.probability = probability
        self.action = action
    }

    /// Whether the rule's match fields all hold for a request.
    func matches(token: String?, topic: String?, pushType: String?, path: String) -> Bool {
        if action.isFCM { return false }
        if let want = self.token, want.lowercased() != token?.lowercased() { return false }
        if let want = self.topic, want != topic { return false }
        if let want = self.pushType, want != pushType { return false }
        if let want = pathPrefix, !path.hasPrefix(want) { return false }
        return true
    }

    /// Whether the rule is the FCM front door's and matches a send to `project` (and `registrationToken`, the
    /// message's token; nil for a topic or condition send).
    func matchesFCM(project: String, registrationToken: String?) -> Bool {
        guard action.isFCM else { return false }
        if let want = self.project, want != project { return false }
        if let want = self.registrationToken, want != registrationToken { return false }
        return true
    }

    /// The JSON form.
    public func jsonValue() -> JSONValue {
        typealias M = JSONValue.JSONMember
        var match: [M] = []
        if let token { match.append(M("token", .string(token))) }
        if let topic { match.append(M("topic", .string(topic))) }
        if let pushType { match.append(M("push_type", .string(pushType))) }
        if let pathPrefix { match.append(M("path", .string(pathPrefix))) }
        if let project { match.append(M("project", .string(project))) }
        if let registrationToken { match.append(M("registration_token", .string(registrationToken))) }
        var members = [M("name", .string(name)), M("match", .object(match))]
        if let count { members.append(M("count", .integer(Int64(count)))) }
        members.append(M("probability", .double(probability)))
        members.append(M("action", action.jsonValue()))
        return .object(members)
    }

    /// Reads the JSON form.
    public init(json: JSONValue) throws(ConfigurationError) {
        guard case .object = json else { throw .invalidFault("a rule must be a JSON object") }
        guard let actionJSON = json["action"] else { throw .invalidFault("a rule needs an \"action\"") }
        let match = json["match"] ?? .object([])
        var count: Int64?
        if let value = json["count"], value != .null {
            // integerValue is nil for fractions and numbers past Int64: refused, never rounded or treated as "no limit".
            guard let number = value.integerValue, number >= 0 else {
                throw .invalidFault("\"count\" must be a whole number, 0 or more")
            }
            count = number
        }
        var probability = 1.0
        if let value = json["probability"] {
            guard let number = value.numberValue, (0...1).contains(number) else {
                throw .invalidFault("\"probability\" must be a number between 0 and 1")
            }
            probability = number
        }
        let action = try FaultAction(json: actionJSON)
        let apnsFields = ["token", "topic", "push_type", "path"].filter { match[$0] != nil }
        let fcmFields = ["project", "registration_token"].filter { match[$0] != nil }
        if action.isFCM, let field = apnsFields.first {
            throw .invalidFault("an \"fcm_error\" rule matches FCM sends by \"project\" and \"registration_token\", not \"\(field)\"; to fail the APNs push an FCM message becomes, match its APNs \"token\" with a \"status\" action")
        }
        if !action.isFCM, let field = fcmFields.first {
            throw .invalidFault("\"\(field)\" matches FCM sends, so only an \"fcm_error\" action may use it")
        }
        self.init(
            name: json["name"]?.stringValue, token: match["token"]?.stringValue, topic: match["topic"]?.stringValue,
            pushType: match["push_type"]?.stringValue, pathPrefix: match["path"]?.stringValue,
            project: match["project"]?.stringValue, registrationToken: match["registration_token"]?.stringValue,
            count: count.map { Int($0) }, probability: probability, action: action)
    }
}
