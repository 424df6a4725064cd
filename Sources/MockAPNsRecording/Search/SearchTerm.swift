/// One term of a ``SearchQuery``: a field, the value it wants, and whether it is negated (`-status:200`).
public struct SearchTerm: Sendable, Equatable {
    /// What a term looks at.
    public enum Field: String, Sendable, Equatable, CaseIterable {
        /// `topic:` — the `apns-topic` header, exactly (case-insensitive).
        case topic
        /// `token:` — the device token; a prefix is enough (case-insensitive).
        case token
        /// `type:` — the `apns-push-type` header (case-insensitive).
        case type
        /// `status:` — the response status: `200`, or a class such as `4xx`.
        case status
        /// `reason:` — the APNs reason (`BadDeviceToken`), case-insensitive.
        case reason
        /// `title:` — part of the alert's title (or of a string alert), case-insensitive.
        case title
        /// `body:` — part of the alert's body, case-insensitive.
        case body
        /// `has:` — a key present at the payload's top level or in `aps` (`has:inAppSymbol`, `has:badge`),
        /// or `has:lint` / `has:fault` for records with lint findings or applied faults, `has:relay` for pushes sent
        /// upstream and `has:disagreement` for those the upstream answered otherwise than the mock.
        case has
        /// A bare word: part of the topic, token, title, body or reason.
        case text
    }

    /// The field.
    public var field: Field
    /// The value as typed (quotes removed).
    public var value: String
    /// True for `-field:value`: the term matches when the record does not.
    public var negated: Bool

    /// Makes a term.
    public init(_ field: Field, _ value: String, negated: Bool = false) {
        self.field = field
        self.value = value
        self.negated = negated
    }

    /// Whether `record` satisfies the term (negation applied).
    func matches(_ record: SearchableRecord) -> Bool {
        positiveMatch(record) != negated
    }

    private func positiveMatch(_ record: SearchableRecord) -> Bool {
        let wanted = value.lowercased()
        switch field {
        case .topic: return record.topic?.lowercased() == wanted
        case .token: return record.token?.lowercased().hasPrefix(wanted) ?? false
        case .type: return record.pushType?.lowercased() == wanted
        case .status: return Self.status(record.status, matches: wanted)
        case .reason: return record.reason?.lowercased() == wanted
        case .title: return record.title?.lowercased().contains(wanted) ?? false
        case .body: return record.body?.lowercased().contains(wanted) ?? false
        case .has: return record.has(value)
        case .text:
            return [record.topic, record.token, record.title, record.body, record.reason]
                .contains { $0?.lowercased().contains(wanted) ?? false }
        }
    }

    /// `200` matches 200 only; `4xx` matches 400–499. The parser has checked the form.
    static func status(_ status: Int, matches pattern: String) -> Bool {
        if let exact = Int(pattern) { return status == exact }
        guard let first = pattern.first?.wholeNumberValue else { return false }
        return status / 100 == first
    }
}
