import APNsModel
/// A change to a virtual device that is not a push: an event on its timeline, so the screen can be computed for any
/// moment (docs/device-rules.md#over-time).
///
/// JSON (``init(json:)``, ``json``), one object per change, its kind under `"change"`:
/// `{"change": "online"}`, `{"change": "offline"}`, `{"change": "app_state", "state": "background"}`,
/// `{"change": "settings", "settings": {…DeviceSettings…}}`,
/// `{"change": "tap", "apns_id": "…", "action": "…"|null}`,
/// `{"change": "live_activity_started", "token": "…", "content_state": {…}}`,
/// `{"change": "live_activity_token", "started_by": "…", "token": "…"}`.
public enum DeviceChange: Sendable, Hashable {
    /// The device reaches APNs again: APNs forwards what it stored (rule 11).
    case online
    /// The device loses its connection to APNs: pushes from now on are stored or dropped (rule 11).
    case offline
    /// The app moves to another state (foreground, background, not running, force-quit).
    case appState(AppState)
    /// The device's settings are replaced, e.g. notifications denied or the budget changed.
    case settings(DeviceSettings)
    /// The user taps the notification with this `apns-id` in Notification Center, or one of its action buttons
    /// (`action`, an identifier of the payload's `category`); `nil` is the default action (rule 5).
    case tap(apnsID: String, action: String?)
    /// The app started a Live Activity itself (`Activity.request`) and reported its push token (rule 15).
    case liveActivityStarted(token: String, contentState: JSONValue)
    /// The app reported the push token of the Live Activity that the push-to-start push `startedBy` (an
    /// `apns-id`) created, so later `update` and `end` pushes to `token` reach it (rule 15).
    case liveActivityToken(startedBy: String, token: String)

    /// The `"change"` words, in declaration order.
    public static let kinds = [
        "online", "offline", "app_state", "settings", "tap", "live_activity_started", "live_activity_token",
    ]

    /// The keys a change object may have besides `"change"`, by kind.
    static let parameters: [String: [String]] = [
        "online": [], "offline": [], "app_state": ["state"], "settings": ["settings"], "tap": ["apns_id", "action"],
        "live_activity_started": ["token", "content_state"], "live_activity_token": ["started_by", "token"],
    ]

    /// Reads a change object. `extraKeys` are keys the caller reads itself (e.g. `"at"` of a timeline step) and
    /// that are therefore allowed.
    public init(json: JSONValue, extraKeys: [String] = []) throws(DeviceModelError) {
        guard let kind = json["change"]?.stringValue else {
            throw .badValue(key: "change", expected: "one of \(Self.kinds.joined(separator: ", "))")
        }
        guard let parameters = Self.parameters[kind] else { throw .unknownChange(kind, known: Self.kinds) }
        let reader = try DeviceJSONReader(json, allowed: ["change"] + parameters + extraKeys)
        switch kind {
        case "online":
            self = .online
        case "offline":
            self = .offline
        case "app_state":
            let word = try reader.string("state")
            guard let state = AppState(rawValue: word) else {
                throw .badValue(key: "state", expected: "one of \(AppState.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            self = .appState(state)
        case "settings":
            guard let settings = reader["settings"] else { throw .missingKey("settings") }
            self = .settings(try DeviceSettings(json: settings))
        case "tap":
            self = .tap(apnsID: try reader.string("apns_id"), action: try reader.optionalString("action"))
        case "live_activity_started":
            guard let state = reader["content_state"], state.isJSONObject else {
                throw .badValue(key: "content_state", expected: "a JSON object (the activity's ContentState)")
            }
            self = .liveActivityStarted(token: try reader.string("token"), contentState: state)
        default:
            self = .liveActivityToken(startedBy: try reader.string("started_by"), token: try reader.string("token"))
        }
    }

    /// The JSON form.
    public var json: JSONValue {
        .object(jsonMembers)
    }

    /// The JSON form's members, for callers that add their own (a timeline step's `"at"`).
    public var jsonMembers: [JSONValue.JSONMember] {
        switch self {
        case .online: return [.init("change", .string("online"))]
        case .offline: return [.init("change", .string("offline"))]
        case .appState(let state):
            return [.init("change", .string("app_state")), .init("state", .string(state.rawValue))]
        case .settings(let settings):
            return [.init("change", .string("settings")), .init("settings", settings.json)]
        case .tap(let apnsID, let action):
            return [
                .init("change", .string("tap")), .init("apns_id", .string(apnsID)),
                .init("action", .string(orNull: action)),
            ]
        case .liveActivityStarted(let token, let contentState):
            return [
                .init("change", .string("live_activity_started")), .init("token", .string(token)),
                .init("content_state", contentState),
            ]
        case .liveActivityToken(let startedBy, let token):
            return [
                .init("change", .string("live_activity_token")), .init("started_by", .string(startedBy)),
                .init("token", .string(token)),
            ]
        }
    }
}
