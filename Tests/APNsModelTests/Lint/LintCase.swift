@testable import APNsModel

/// One lint scenario: a payload plus headers, and the rule that must (or must not) fire.
struct LintCase {
    let rule: LintRule
    let payload: String
    var pushType: PushType? = nil
    var priority: Priority? = nil
    var topic: String? = nil
    /// `nil` means the payload text's own UTF-8 length.
    var bytes: Int? = nil

    func findings() -> [LintFinding] {
        PayloadLinter.lint(
            payload: json(payload), pushType: pushType, priority: priority, topic: topic,
            payloadBytes: bytes ?? payload.utf8.count)
    }
}
