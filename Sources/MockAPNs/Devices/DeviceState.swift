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

    /// Reads the JSON form; the error names the expected shape.
    public init(json: JSONValue) throws(ConfigurationError) {
        guard let state = json["state"]?.stringValue else {
            throw .invalidDevice("a device needs a \"state\": unregistered, expired, topics, otherEnvironment or rateLimited")
        }
        switch state {
        case "unregistered":
            self = .unregistered(timestamp: json["timestamp"]?.integerValue)
        case "expired":
            self = .expired
        case "topics":
            guard case .array(let items) = json["topics"] ?? .null else {
                throw .invalidDevice("state \"topics\" needs \"topics\": a list of topic strings")
            }
            self = .topics(items.compactMap(\.stringValue))
        case "otherEnvironment":
            self = .otherEnvironment
        case "rateLimited":
            guard let max = json["max"]?.integerValue, max >= 0,
                  let window = json["window_seconds"]?.integerValue, window > 0 else {
                throw .invalidDevice("state \"rateLimited\" needs \"max\" (pushes, ≥ 0) and \"window_seconds\" (> 0)")
            }
            self = .rateLimited(max: Int(max), windowSeconds: Int(window))
        default:
            throw .invalidDevice("unknown device state \"\(state)\"; use unregistered, expired, topics, otherEnvironment or rateLimited")
        }
    }
}
