import APNsModel
/// The facts about an `aps` dictionary that the delivery rules and the linter read.
///
/// Internal: the simulator and the linter agree on what "visible alert", "silent" and "sound" mean
/// by reading them from here.
struct ApsFacts: Sendable {
    /// Keys of an alert dictionary that make text appear.
    static let visibleAlertKeys = ["title", "subtitle", "body", "loc-key", "title-loc-key", "subtitle-loc-key"]

    /// The `aps` dictionary itself.
    let aps: JSONValue
    /// `aps.alert` is present (any type).
    let hasAlertKey: Bool
    /// `aps.sound` is present (any type).
    let hasSoundKey: Bool
    /// `aps.badge` is present (any type).
    let hasBadgeKey: Bool
    /// The alert would show text: a non-empty string, or a dictionary with a title, subtitle, body or loc key.
    let hasVisibleAlert: Bool
    /// `aps.alert.title` when it is a string.
    let title: String?
    /// `aps.alert.body`, or the alert itself when it is a string.
    let body: String?
    /// A sound would play: a non-empty sound name, or a sound dictionary.
    let playsSound: Bool
    /// `aps.sound.critical` is 1.
    let criticalSound: Bool
    /// `aps.badge` when it is an integer.
    let badge: Int?
    /// `aps.content-available` is 1.
    let contentAvailable: Bool
    /// `aps.mutable-content` is 1.
    let mutableContent: Bool
    /// `aps.interruption-level` when it is a string.
    let interruptionLevel: String?

    /// Reads `aps`; `nil` when it is not a dictionary.
    init?(aps: JSONValue) {
        guard aps.objectMembers != nil else { return nil }
        self.aps = aps
        let alert = aps["alert"]
        hasAlertKey = alert != nil
        hasSoundKey = aps["sound"] != nil
        hasBadgeKey = aps["badge"] != nil
        switch alert {
        case .string(let text)?:
            hasVisibleAlert = !text.isEmpty
            title = nil
            body = text
        case .object?:
            hasVisibleAlert = Self.visibleAlertKeys.contains { key in
                switch alert?[key] {
                case .string(let s)?: return !s.isEmpty
                case .object?: return true  // Live Activity alerts localise title/body as dictionaries.
                default: return false
                }
            }
            title = alert?["title"]?.stringValue
            body = alert?["body"]?.stringValue
        default:
            hasVisibleAlert = false
            title = nil
            body = nil
        }
        switch aps["sound"] {
        case .string(let name)?:
            playsSound = !name.isEmpty
            criticalSound = false
        case .object(let members)?:
            playsSound = true
            criticalSound = members.last(where: { $0.key == "critical" })?.value.isNumberOne ?? false
        default:
            playsSound = false
            criticalSound = false
        }
        badge = aps["badge"]?.integerValue.flatMap { Int(exactly: $0) }
        contentAvailable = aps["content-available"]?.isNumberOne ?? false
        mutableContent = aps["mutable-content"]?.isNumberOne ?? false
        interruptionLevel = aps["interruption-level"]?.stringValue
    }

    /// Rule 1: `content-available: 1` and no `alert`, `sound` or `badge` key.
    var isSilent: Bool { contentAvailable && !hasAlertKey && !hasSoundKey && !hasBadgeKey }

    /// The push asks the user's attention in some way: an alert, a sound or a badge.
    var isUserFacing: Bool { hasAlertKey || hasSoundKey || hasBadgeKey }
}

extension JSONValue {
    /// The number 1 (written `1` or `1.0`); booleans and strings are not.
    var isNumberOne: Bool { numberValue == 1 }
}
