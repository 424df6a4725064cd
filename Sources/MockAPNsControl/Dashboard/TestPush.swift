import APNsModel

/// A push the dashboard's "send a test push" form asks for.
public struct TestPush: Sendable, Equatable {
    /// The device token (hex).
    public var token: String
    /// `apns-topic`.
    public var topic: String
    /// `apns-push-type`; alert when absent.
    public var pushType: String
    /// `apns-priority`, when given.
    public var priority: Int?
    /// The payload as JSON text, sent byte for byte (so malformed JSON can be tried too).
    public var payload: [UInt8]

    /// Makes a push.
    public init(token: String, topic: String, pushType: String = "alert", priority: Int? = nil, payload: [UInt8]) {
        self.token = token
        self.topic = topic
        self.pushType = pushType
        self.priority = priority
        self.payload = payload
    }

    /// Reads the form's JSON; 400 naming the missing field. `payload` may be an object or a string of JSON text.
    init(json: JSONValue) throws(ControlAPIError) {
        guard let token = json["token"]?.stringValue, !token.isEmpty else {
            throw .badRequest("A test push needs \"token\": the device token in hex.")
        }
        guard let topic = json["topic"]?.stringValue, !topic.isEmpty else {
            throw .badRequest("A test push needs \"topic\": the app's bundle id (apns-topic).")
        }
        let payload: [UInt8]
        switch json["payload"] {
        case .string(let text)?: payload = Array(text.utf8)
        case let value? where value.isJSONObject: payload = Array(value.jsonText().utf8)
        default: throw .badRequest("A test push needs \"payload\": a JSON object, or JSON text as a string.")
        }
        var priority: Int?
        if let raw = json["priority"], raw != .null {
            guard let value = raw.integerValue, [1, 5, 10].contains(value) else {
                throw .badRequest("\"priority\" must be 10, 5 or 1.")
            }
            priority = Int(value)
        }
        self.init(token: token, topic: topic, pushType: json["push_type"]?.stringValue ?? "alert", priority: priority, payload: payload)
    }
}

/// What the mock answered a test push.
public struct TestPushResult: Sendable, Equatable {
    /// The HTTP status.
    public var status: Int
    /// The APNs reason, for a rejection.
    public var reason: String?
    /// The `apns-id` the mock answered with.
    public var apnsID: String?

    /// Makes a result.
    public init(status: Int, reason: String?, apnsID: String?) {
        self.status = status
        self.reason = reason
        self.apnsID = apnsID
    }
}

/// Sends a ``TestPush`` to the mock over its real HTTP/2 path; the `mockapns` command supplies one built on the
/// client library with the bundled test key.
public struct TestPushSender: Sendable {
    /// Sends one push; a thrown error is shown to the person as a 502 with its description.
    public let send: @Sendable (TestPush) async throws -> TestPushResult

    /// Wraps `send`.
    public init(send: @escaping @Sendable (TestPush) async throws -> TestPushResult) {
        self.send = send
    }
}
