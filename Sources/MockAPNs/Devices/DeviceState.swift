import APNsModel

/// What the mock should pretend about one device token. Tokens the registry does not know are live.
public enum DeviceState: Sendable, Equatable {
    /// The app was removed: `410 Unregistered` with `timestamp` (ms since the epoch; the time it was set when nil).
    case unregistered(timestamp: Int64?)
    /// The token expired: `410 ExpiredToken` with a timestamp.
    case expired
    /// The token belongs to these topics only; any other topic gets `400 DeviceTokenNotForTopic`.
    case topics([String])
    /// The token is from the other environment: `400 BadDeviceToken`.
    case otherEnvironment
    /// After `max` pushes within `windowSeconds`, further pushes get `429 TooManyRequests`.
    case rateLimited(max: Int, windowSeconds: Int)

    /// The JSON form used by `--devices` files and `PUT /api/v1/devices/{token}`:
    /// `{"state":"unregistered","timestamp":…}`, `{"state":"expired"}`, `{"state":"topics","topics":[…]}`,
    /// `{"state":"otherEnvironment"}`, `{"state":"rateLimited","max":N,"window_seconds":S}`.
    public func jsonValue() -> JSONValue {
        typealias M = JSONValue.JSONMember
        switch self {
        case .unregistered(let timestamp):
            return .object([M("state", .string("unregistered")), M("timestamp", timestamp.map(JSONValue.integer) ?? .null)])
        case .expired:
            return .object([M("state", .string("expired"))])
        case .topics(let topics):
            return .object([M("state", .string("topics")), M("topics", .array(topics.map(JSONValue.string)))])
        case .otherEnvironment:
            return .object([M("state", .string("otherEnvironment"))])
        case .rateLimited(let max, let window):
            return .object([M("state", .string("rateLimited")), M("max", .integer(Int64(max))),
                            M("window_seconds", .integer(Int64(window)))])
        }
    }

    /// Reads the JSON form; the error names the expected shape. Numbers must be whole JSON integers in range
    /// (a fraction, a float or a number past Int64 is an error, never rounded or wrapped), and the state must
    /// stay within the bounds ``boundsProblem`` names.
    public init(json: JSONValue) throws(ConfigurationError) {
        guard let state = json["state"]?.stringValue else {
            throw .invalidDevice("a device needs a \"state\": unregistered, expired, topics, otherEnvironment or rateLimited")
        }
        switch state {
        case "unregistered":
            let timestamp = json["timestamp"] ?? .null
            if timestamp == .null {
                self = .unregistered(timestamp: nil)
            } else {
                guard let millis = timestamp.integerValue, millis >= 0 else {
                    throw .invalidDevice("\"timestamp\" is milliseconds since 1970: a whole number ≥ 0 (or null for the time it is set)")
                }
                self = .unregistered(timestamp: millis)
            }
        case "expired":
            self = .expired
        case "topics":
            guard case .array(let items) = json["topics"] ?? .null else {
                throw .invalidDevice("state \"topics\" needs \"topics\": a list of topic strings")
            }
            var topics: [String] = []
            for item in items {
                guard let topic = item.stringValue else { throw .invalidDevice("every entry of \"topics\" must be a string") }
                topics.append(topic)
            }
            self = .topics(topics)
        case "otherEnvironment":
            self = .otherEnvironment
        case "rateLimited":
            // integerValue is nil for fractions and for numbers past Int64, so a huge or fractional value is refused
            // here instead of being converted; the ranges keep `window * 1000` and the push log small.
            guard let max = json["max"]?.integerValue, (0...Int64(Self.maximumRatePushes)).contains(max),
                  let window = json["window_seconds"]?.integerValue, (1...Int64(Self.maximumRateWindowSeconds)).contains(window) else {
                throw .invalidDevice("state \"rateLimited\" needs \"max\" (pushes, 0 to \(Self.maximumRatePushes)) and "
                    + "\"window_seconds\" (1 to \(Self.maximumRateWindowSeconds)), both whole numbers")
            }
            self = .rateLimited(max: Int(max), windowSeconds: Int(window))
        default:
            throw .invalidDevice("unknown device state \"\(state)\"; use unregistered, expired, topics, otherEnvironment or rateLimited")
        }
        if let problem = boundsProblem { throw .invalidDevice(problem) }
    }

    /// The most topics one `topics` state may list: far more than one app's topics (bundle ID, `.voip`,
    /// `.complication`, `.push-type.*`), few enough that a registry full of such devices stays small.
    public static let maximumTopics = 100
    /// The longest topic a `topics` state may list, in UTF-8 bytes: longer than any bundle ID plus suffix.
    public static let maximumTopicBytes = 255
    /// The largest `max` of a `rateLimited` state: the registry keeps one timestamp per push in the window.
    public static let maximumRatePushes = 10_000
    /// The longest `window_seconds` of a `rateLimited` state: one day.
    public static let maximumRateWindowSeconds = 86_400

    /// Why this state is outside the mock's bounds (too many or too long topics, a rate limit out of range), or
    /// nil when it is within them. Checked for every state the registry stores, however it was made.
    public var boundsProblem: String? {
        switch self {
        case .unregistered(let timestamp?) where timestamp < 0:
            return "\"timestamp\" is milliseconds since 1970 and cannot be negative (got \(timestamp))"
        case .topics(let topics) where topics.count > Self.maximumTopics:
            return "a device may list at most \(Self.maximumTopics) topics (got \(topics.count))"
        case .topics(let topics):
            if let long = topics.first(where: { $0.utf8.count > Self.maximumTopicBytes }) {
                return "a topic is at most \(Self.maximumTopicBytes) bytes (one has \(long.utf8.count))"
            }
            return nil
        case .rateLimited(let max, let window):
            guard (0...Self.maximumRatePushes).contains(max), (1...Self.maximumRateWindowSeconds).contains(window) else {
                return "a rate limit needs max 0 to \(Self.maximumRatePushes) and window_seconds 1 to \(Self.maximumRateWindowSeconds) "
                    + "(got max \(max), window_seconds \(window))"
            }
            return nil
        default:
            return nil
        }
    }
}
