import APNsModel
import DeviceSimulation

/// What one `--devices` entry or `PUT /api/v1/devices/{token}` body says about a device: how APNs answers for it
/// (``DeviceState``: `state` and its fields, as before), and how the virtual device changes at an instant (`online`,
/// `offline_until`, `app_state`, `settings`), which become ``DeviceChange`` events on its timeline.
///
/// ```json
/// {"state": "unregistered"}
/// {"online": false, "offline_until": 1800003600000, "app_state": "background", "at": 1800000000000}
/// {"settings": {"profile": {"state": "foreground", "inAppRouting": true}, "background_budget_per_hour": 2}}
/// {"push_to_start_tokens": ["b2b2…"]}
/// ```
public struct DeviceUpdate: Sendable {
    /// How APNs answers pushes to the device, when the body names a `state`.
    public var state: DeviceState?
    /// The changes to the virtual device, in time order.
    public var changes: [DeviceEvent]
    /// The device's Live Activity push-to-start tokens, when the body declares them: pushes to them belong on its
    /// timeline.
    public var pushToStartTokens: [String]?

    /// The keys of a virtual-device change, beside the ``DeviceState`` keys.
    public static let changeKeys = ["online", "offline_until", "app_state", "settings", "push_to_start_tokens", "at"]

    /// An update of these parts.
    public init(state: DeviceState? = nil, changes: [DeviceEvent] = [], pushToStartTokens: [String]? = nil) {
        self.state = state
        self.changes = changes
        self.pushToStartTokens = pushToStartTokens
    }

    /// Reads a body or entry; `now` (milliseconds since 1970) is the instant of changes without `at`.
    public init(json: JSONValue, now: Int64) throws(ConfigurationError) {
        state = json["state"] == nil ? nil : try DeviceState(json: json)
        let at: Int64
        if let given = json["at"] {
            guard let millis = given.integerValue, millis >= 0 else {
                throw .invalidDevice("\"at\" is the change's time in milliseconds since 1970: a whole number ≥ 0")
            }
            at = millis
        } else {
            at = now
        }
        var changes: [DeviceEvent] = []
        if let settings = json["settings"] {
            do {
                changes.append(.change(.settings(try DeviceSettings(json: settings)), at: at))
            } catch {
                throw .invalidDevice("\"settings\": \(error)")
            }
        }
        if let raw = json["app_state"] {
            guard let name = raw.stringValue, let appState = AppState(rawValue: name) else {
                throw .invalidDevice("\"app_state\" is one of \(AppState.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            changes.append(.change(.appState(appState), at: at))
        }
        let online = json["online"]
        if let online, online.boolValue == nil {
            throw .invalidDevice("\"online\" is true or false")
        }
        if let until = json["offline_until"] {
            guard let millis = until.integerValue, millis >= at else {
                throw .invalidDevice("\"offline_until\" is when the device comes back online, in milliseconds since 1970, not before \"at\"")
            }
            guard online?.boolValue != true else {
                throw .invalidDevice("\"offline_until\" takes the device offline until then; \"online\": true contradicts it")
            }
            changes.append(.change(.offline, at: at))
            changes.append(.change(.online, at: millis))
        } else if let isOnline = online?.boolValue {
            changes.append(.change(isOnline ? .online : .offline, at: at))
        }
        if let list = json["push_to_start_tokens"] {
            guard let items = list.arrayElements else {
                throw .invalidDevice("\"push_to_start_tokens\" is a list of hex device tokens")
            }
            var tokens: [String] = []
            for item in items {
                guard let token = item.stringValue, DeviceToken.isValid(token) else {
                    throw .invalidDevice("\"push_to_start_tokens\" holds even-length hex device tokens")
                }
                tokens.append(token)
            }
            pushToStartTokens = tokens
        }
        guard state != nil || !changes.isEmpty || pushToStartTokens != nil else {
            throw .invalidDevice("say what to set: a \"state\" (unregistered, expired, topics, otherEnvironment, rateLimited) "
                + "and/or a change of the virtual device (\(Self.changeKeys.dropLast().joined(separator: ", ")))")
        }
        self.changes = changes
    }
}
