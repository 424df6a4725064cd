import MockAPNsRecording

/// How many received notifications must match an expectation.
public enum NotificationCount: Sendable, Hashable, CustomStringConvertible {
    /// Exactly this many (`.exactly(0)`: none may match).
    case exactly(Int)
    /// This many or more.
    case atLeast(Int)

    /// No notification may match.
    public static let none = NotificationCount.exactly(0)

    /// Whether `count` matching notifications satisfy the requirement.
    public func isSatisfied(by count: Int) -> Bool {
        switch self {
        case .exactly(let n): return count == n
        case .atLeast(let n): return count >= n
        }
    }

    /// `a notification`, `no notification`, `exactly 2 notifications`, `at least 3 notifications`.
    public var description: String {
        switch self {
        case .atLeast(1): return "a notification"
        case .exactly(0): return "no notification"
        case .exactly(1): return "exactly 1 notification"
        case .exactly(let n): return "exactly \(n) notifications"
        case .atLeast(let n): return "at least \(n) notification\(n == 1 ? "" : "s")"
        }
    }

    /// The same count as the recording's expectations spell it.
    var quantity: Expectation.Quantity {
        switch self {
        case .exactly(let n): return .exactly(n)
        case .atLeast(let n): return .atLeast(n)
        }
    }
}
