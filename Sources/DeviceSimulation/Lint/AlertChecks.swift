import APNsModel
/// Checks on `aps.alert`: its type, its keys, and localisation key pairs.
enum AlertChecks {
    /// Keys whose value is text (a dictionary is allowed for title/subtitle/body in Live Activity alerts).
    static let textKeys = [
        "title", "subtitle", "body", "launch-image", "title-loc-key", "subtitle-loc-key", "loc-key", "action",
        "action-loc-key", "summary-arg",
    ]
    /// Keys whose value is an array of strings.
    static let argumentKeys = ["title-loc-args", "subtitle-loc-args", "loc-args"]
    /// Every known alert key (Apple's table plus the legacy `action`, `action-loc-key`, `summary-arg`,
    /// `summary-arg-count`, and `sound`, which Live Activity alerts carry).
    static let knownKeys = textKeys + argumentKeys + ["summary-arg-count", "sound"]

    /// `*-loc-args` keys and the `*-loc-key` each needs.
    static let argumentPairs: [(args: String, key: String, rule: LintRule)] = [
        ("loc-args", "loc-key", .locArgsWithoutLocKey),
        ("title-loc-args", "title-loc-key", .titleLocArgsWithoutTitleLocKey),
        ("subtitle-loc-args", "subtitle-loc-key", .subtitleLocArgsWithoutSubtitleLocKey),
    ]

    static func run(_ context: inout LintContext) {
        guard let alert = context.aps?["alert"] else { return }
        if alert.stringValue != nil { return }
        guard let members = alert.objectMembers else {
            context.report(
                .alertWrongType, "alert must be a string or a dictionary, not a JSON \(alert.typeName)",
                at: "aps.alert")
            return
        }
        for member in members {
            // The path is spelled only for a finding: most members have none.
            var path: String { "aps.alert.\(member.key)" }
            guard knownKeys.contains(member.key) else {
                let hint = KeySuggester.suggestion(for: member.key, among: knownKeys)
                    .map { ": did you mean \"\($0)\"?" } ?? ": iOS ignores it"
                context.report(.alertUnknownKey, "unknown alert key \"\(member.key)\"\(hint)", at: path)
                continue
            }
            if let expected = expectedType(of: member.key, value: member.value, liveActivity: context.isLiveActivity) {
                context.report(
                    .alertWrongType, "alert.\(member.key) must be \(expected), not a JSON \(member.value.typeName)",
                    at: path)
            }
        }
        for pair in argumentPairs where alert[pair.args] != nil && alert[pair.key] == nil {
            context.report(
                pair.rule, "alert.\(pair.args) without alert.\(pair.key): the arguments are never used",
                at: "aps.alert.\(pair.args)")
        }
    }

    /// What `key` should hold, or `nil` when `value` is fine.
    private static func expectedType(of key: String, value: JSONValue, liveActivity: Bool) -> String? {
        if argumentKeys.contains(key) {
            let ok = value.lintArrayElements?.allSatisfy { $0.stringValue != nil } ?? false
            return ok ? nil : "an array of strings"
        }
        if key == "summary-arg-count" { return value.integerValue == nil ? "an integer" : nil }
        if key == "sound" { return value.stringValue == nil && value.objectMembers == nil ? "a string" : nil }
        if liveActivity, ["title", "subtitle", "body"].contains(key), value.objectMembers != nil { return nil }
        return value.stringValue == nil ? "a string" : nil
    }
}

extension JSONValue {
    /// The elements, when this is an array.
    var lintArrayElements: [JSONValue]? {
        if case .array(let elements) = self { return elements }
        return nil
    }
}
