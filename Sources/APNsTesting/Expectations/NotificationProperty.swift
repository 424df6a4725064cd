/// One thing a test expects of a received notification, e.g. `.topic("com.example.shop")`,
/// `.alertTitle("Shipped")`, `.rejected(.unregistered)` or `.onDevice(.showsBanner, appState: .background)`.
///
/// The same values drive the XCTest helpers (`XCTAssertReceived`) and the Swift Testing helpers
/// (`expectReceived`); ``ExpectationEvaluator`` turns them into a failure message.
public struct NotificationProperty: Sendable, CustomStringConvertible {
    /// What is checked, e.g. `topic` or `alert title`.
    public let name: String
    /// The expected value in words, e.g. `"com.example.shop"`.
    public let expected: String
    /// The whole expectation in words, e.g. `topic com.example.shop`.
    public let description: String
    /// Whether `description` is a relative clause (`that, on a background app, shows a banner`) rather than
    /// a noun phrase (`topic com.example.shop`), so messages can read "a notification with … that …".
    let isClause: Bool
    private let evaluate: @Sendable (ReceivedNotification) -> PropertyCheck

    /// Makes a property from a check; use this for anything the built-in properties do not cover.
    /// `description` defaults to `name expected`.
    public init(name: String, expected: String, description: String? = nil,
                check: @escaping @Sendable (ReceivedNotification) -> PropertyCheck) {
        self.name = name
        self.expected = expected
        self.description = description ?? (expected.isEmpty ? name : "\(name) \(expected)")
        self.isClause = false
        self.evaluate = check
    }

    /// A property whose description is a relative clause (see `isClause`).
    init(name: String, expected: String, clause: String, check: @escaping @Sendable (ReceivedNotification) -> PropertyCheck) {
        self.name = name
        self.expected = expected
        self.description = clause
        self.isClause = true
        self.evaluate = check
    }

    /// `with A, B that, on …, X`: the noun phrases after "with", the clauses after them; empty for none.
    static func phrase(_ properties: [NotificationProperty]) -> String {
        let nouns = properties.filter { !$0.isClause }.map(\.description)
        let clauses = properties.filter(\.isClause).map(\.description)
        var parts: [String] = []
        if !nouns.isEmpty { parts.append("with " + nouns.joined(separator: ", ")) }
        if !clauses.isEmpty { parts.append(clauses.joined(separator: " and ")) }
        return parts.joined(separator: " ")
    }

    /// Checks `notification`.
    public func check(_ notification: ReceivedNotification) -> PropertyCheck {
        evaluate(notification)
    }

    /// A property that holds when `value(notification)` equals `expected` (nil reads as `absent`).
    static func equal(_ name: String, _ expected: String, quoted: Bool = true,
                      value: @escaping @Sendable (ReceivedNotification) -> String?) -> NotificationProperty {
        let show: @Sendable (String) -> String = { quoted ? ReceivedNotification.quoted($0) : $0 }
        return NotificationProperty(name: name, expected: show(expected)) { notification in
            let actual = value(notification)
            return PropertyCheck(matched: actual == expected, actual: actual.map(show) ?? "absent")
        }
    }

    /// A custom property: holds when `predicate` does; `description` says what it expects.
    public static func matching(
        _ description: String, _ predicate: @escaping @Sendable (ReceivedNotification) -> Bool
    ) -> NotificationProperty {
        NotificationProperty(name: description, expected: "") { notification in
            let matched = predicate(notification)
            return PropertyCheck(matched: matched, actual: matched ? "holds" : "does not hold")
        }
    }
}
