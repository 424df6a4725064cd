import APNsModel
/// device-rules §4: whether a foreground push becomes an in-app notification, and with which style.
///
/// The rule (from SwiftyLaunch's NotifKit): the alert has a `title` and a `body`, and the custom data has
/// `inAppSymbol` and `inAppColor` (strings). `inAppSize` (`normal`|`compact`) and `inAppHaptics`
/// (`success`|`warning`|`error`) are optional; other values fall back to `normal` / `warning` with a warning.
public enum InAppRouting {
    /// The custom-data keys the rule reads.
    public static let keys = ["inAppSymbol", "inAppColor", "inAppSize", "inAppHaptics"]

    /// The outcome of the rule for one payload.
    public enum Decision: Sendable, Hashable {
        /// No routing key is present: the push is an ordinary one.
        case notRequested
        /// Routing keys are present but something required is missing; the push is shown as usual.
        /// `missing` names what is missing, e.g. `["inAppColor", "alert body"]`.
        case incomplete(missing: [String])
        /// The app shows an in-app notification with this style; `warnings` explain any fallback.
        case route(InAppStyle, warnings: [String])
    }

    /// Applies the rule to a payload.
    public static func decide(payload: JSONValue) -> Decision {
        let custom = CustomData(payload: payload)
        guard keys.contains(where: { custom[$0] != nil }) else { return .notRequested }
        let alert = payload.value(at: ["aps", "alert"])
        let symbol = custom["inAppSymbol"]?.stringValue
        let color = custom["inAppColor"]?.stringValue
        var missing: [String] = []
        if alert?["title"]?.stringValue == nil { missing.append("alert title") }
        if alert?["body"]?.stringValue == nil { missing.append("alert body") }
        if symbol == nil { missing.append("inAppSymbol") }
        if color == nil { missing.append("inAppColor") }
        guard let symbol, let color, missing.isEmpty else { return .incomplete(missing: missing) }

        var warnings: [String] = []
        var style = InAppStyle(symbol: symbol, color: color)
        if let raw = custom["inAppSize"] {
            if let size = raw.stringValue.flatMap(InAppStyle.Size.init(rawValue:)) {
                style.size = size
            } else {
                warnings.append("inAppSize \(describe(raw)) is not normal or compact: the app uses normal")
            }
        }
        if let raw = custom["inAppHaptics"] {
            if let haptics = raw.stringValue.flatMap(InAppStyle.Haptics.init(rawValue:)) {
                style.haptics = haptics
            } else {
                warnings.append("inAppHaptics \(describe(raw)) is not success, warning or error: the app uses warning")
            }
        }
        if !isHexColor(color) {
            warnings.append("inAppColor \"\(color)\" is not #RRGGBB: the colour the app draws is not modelled")
        }
        return .route(style, warnings: warnings)
    }

    /// Whether a string is `#` followed by exactly six hex digits.
    public static func isHexColor(_ text: String) -> Bool {
        let scalars = Array(text.unicodeScalars)
        guard scalars.count == 7, scalars[0] == "#" else { return false }
        return scalars.dropFirst().allSatisfy { $0.properties.isASCIIHexDigit }
    }

    private static func describe(_ value: JSONValue) -> String {
        if let s = value.stringValue { return "\"\(s)\"" }
        return "(\(value.typeName))"
    }
}
