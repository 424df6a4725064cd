import APNsModel
/// Checks on `aps` itself: presence, unknown keys, value types, flags and the interruption level.
enum ApsKeyChecks {
    /// The JSON type each Apple-defined `aps` key takes (`alert` and `sound` are checked elsewhere).
    enum Kind { case string, number, integer, object, bool, any }

    /// Apple's `aps` keys (apns-rules §4.3, plus legacy `url-args`) and their types.
    static let knownKeys: [(String, Kind)] = [
        ("alert", .any), ("badge", .any), ("sound", .any), ("thread-id", .string), ("category", .string),
        ("content-available", .any), ("mutable-content", .any), ("target-content-id", .string),
        ("interruption-level", .any), ("relevance-score", .number), ("filter-criteria", .string),
        ("stale-date", .number), ("content-state", .object), ("timestamp", .number), ("event", .any),
        ("dismissal-date", .number), ("attributes-type", .string), ("attributes", .object),
        ("content-changed", .bool), ("input-push-token", .integer), ("input-push-channel", .string),
        ("url-args", .any),
    ]

    /// The names of `knownKeys`, for suggestions.
    private static let knownNames = knownKeys.map(\.0)

    /// Push types whose payload is an ordinary `aps` dictionary.
    private static let apsTypes: Set<PushType?> = [nil, .alert, .background, .liveactivity, .widgets, .controls]

    static func run(_ context: inout LintContext) {
        guard let aps = context.payload["aps"] else {
            if apsTypes.contains(context.pushType) {
                context.report(.apsMissing, "the payload has no aps dictionary: the device has nothing to act on", at: "$")
            }
            return
        }
        guard let members = aps.objectMembers else {
            context.report(.apsNotObject, "aps must be a dictionary, not a JSON \(aps.typeName)", at: "aps")
            return
        }
        for member in members {
            // The path is spelled only for a finding: most members have none.
            var path: String { "aps.\(member.key)" }
            guard let kind = knownKeys.first(where: { $0.0 == member.key })?.1 else {
                if let suggestion = KeySuggester.suggestion(for: member.key, among: knownNames) {
                    context.report(
                        .apsCustomKey, "unknown aps key \"\(member.key)\": did you mean \"\(suggestion)\"?", at: path)
                } else {
                    context.report(
                        .apsCustomKey,
                        "unknown aps key \"\(member.key)\": iOS ignores it; custom data belongs beside aps, at the top level",
                        at: path)
                }
                continue
            }
            if !matches(member.value, kind) {
                context.report(
                    .apsWrongType, "\(member.key) must be \(describe(kind)), not a JSON \(member.value.typeName)",
                    at: path)
            }
        }
        if let sound = aps["sound"], sound.stringValue == nil, sound.objectMembers == nil {
            context.report(
                .apsWrongType, "sound must be a string or a dictionary, not a JSON \(sound.typeName)", at: "aps.sound")
        }
        checkFlags(aps, &context)
        checkInterruptionLevel(aps, &context)
    }

    private static func checkFlags(_ aps: JSONValue, _ context: inout LintContext) {
        if let badge = aps["badge"], badge.integerValue == nil {
            context.report(
                .badgeNotInteger, "badge must be an integer, not \(badge.lintDescription): the badge is left unchanged",
                at: "aps.badge")
        }
        if let value = aps["content-available"], !value.isNumberOne {
            context.report(
                .contentAvailableNotOne, "content-available must be the number 1, not \(value.lintDescription)",
                at: "aps.content-available")
        }
        if let value = aps["mutable-content"], !value.isNumberOne {
            context.report(
                .mutableContentNotOne, "mutable-content must be the number 1, not \(value.lintDescription)",
                at: "aps.mutable-content")
        }
        if aps["mutable-content"]?.isNumberOne == true, let content = context.content, !content.hasVisibleAlert {
            context.report(
                .mutableContentWithoutAlert,
                "mutable-content: 1 without a visible alert: the Notification Service Extension never runs",
                at: "aps.mutable-content")
        }
    }

    private static func checkInterruptionLevel(_ aps: JSONValue, _ context: inout LintContext) {
        if let raw = aps["interruption-level"] {
            switch raw.stringValue.flatMap(InterruptionLevelRule.Level.init(rawValue:)) {
            case nil:
                context.report(
                    .interruptionLevelUnknown,
                    "interruption-level \(raw.lintDescription) is not passive, active, time-sensitive or critical",
                    at: "aps.interruption-level")
            case .critical?:
                context.report(
                    .criticalNeedsEntitlement,
                    "interruption-level critical needs Apple's critical-alerts entitlement; without it iOS treats the push as active",
                    at: "aps.interruption-level")
            case .timeSensitive?:
                context.report(
                    .timeSensitiveNeedsEntitlement,
                    "interruption-level time-sensitive needs the time-sensitive entitlement; without it iOS treats the push as active",
                    at: "aps.interruption-level")
            default:
                break
            }
        }
        if aps["sound"]?["critical"]?.isNumberOne == true {
            context.report(
                .criticalNeedsEntitlement,
                "sound.critical: 1 needs Apple's critical-alerts entitlement; without it iOS plays an ordinary sound",
                at: "aps.sound.critical")
        }
    }

    private static func matches(_ value: JSONValue, _ kind: Kind) -> Bool {
        switch kind {
        case .any: return true
        case .string: return value.stringValue != nil
        case .number: return value.numberValue != nil
        case .integer: return value.integerValue != nil
        case .object: return value.objectMembers != nil
        case .bool: return value.boolValue != nil
        }
    }

    private static func describe(_ kind: Kind) -> String {
        switch kind {
        case .any: return "any value"
        case .string: return "a string"
        case .number: return "a number"
        case .integer: return "an integer"
        case .object: return "a dictionary"
        case .bool: return "a boolean"
        }
    }
}
