import APNsModel
/// One problem `PayloadLinter` found in a push: something APNs accepts but the device mishandles,
/// or advice about it. The `id` values are listed, with their meaning, on ``LintRule``.
public struct LintFinding: Sendable, Hashable, Codable {
    /// How bad a finding is.
    public enum Severity: String, CaseIterable, Sendable, Hashable, Codable, Comparable {
        /// Delivery breaks: the push is dropped, ignored or not shown as intended.
        case error
        /// Delivery may not be what the sender expects.
        case warning
        /// Advice.
        case info

        /// Orders severities from the most to the least serious.
        public static func < (lhs: Severity, rhs: Severity) -> Bool {
            allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
        }
    }

    /// The rule's stable kebab-case identifier, e.g. `background-has-alert` (a ``LintRule`` raw value).
    public var id: String
    /// How bad it is.
    public var severity: Severity
    /// A sentence saying what is wrong and what to do.
    public var message: String
    /// Where: a JSON path such as `aps.alert.title`, `$` for the whole payload, or a header name such as
    /// `apns-priority`.
    public var path: String

    /// Makes a finding.
    public init(id: String, severity: Severity, message: String, path: String) {
        self.id = id
        self.severity = severity
        self.message = message
        self.path = path
    }

    /// Makes a finding of `rule` with the rule's severity.
    public init(_ rule: LintRule, message: String, path: String) {
        self.init(id: rule.rawValue, severity: rule.severity, message: message, path: path)
    }
}
