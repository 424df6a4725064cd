/// The result of checking one expected property against one received notification.
public struct PropertyCheck: Sendable, Hashable {
    /// Whether the notification has the property.
    public var matched: Bool
    /// What the notification had instead, in words (e.g. `"Order delayed"`, `absent`, `shows a banner`).
    public var actual: String

    /// Makes a check result.
    public init(matched: Bool, actual: String) {
        self.matched = matched
        self.actual = actual
    }
}
