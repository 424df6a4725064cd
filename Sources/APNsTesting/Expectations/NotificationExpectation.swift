/// What a test expects the mock to have received: how many notifications with which properties.
///
/// ```swift
/// let expectation = NotificationExpectation(.topic("com.example.shop"), .alertTitle("Shipped"), count: .exactly(1))
/// if let failure = expectation.failureMessage(in: mock.notifications) { print(failure) }
/// ```
public struct NotificationExpectation: Sendable, CustomStringConvertible {
    /// Every property a matching notification must have.
    public var properties: [NotificationProperty]
    /// How many notifications must match.
    public var count: NotificationCount

    /// Expects `count` notifications with every one of `properties`.
    public init(_ properties: [NotificationProperty], count: NotificationCount = .atLeast(1)) {
        self.properties = properties
        self.count = count
    }

    /// Expects `count` notifications with every one of `properties`.
    public init(_ properties: NotificationProperty..., count: NotificationCount = .atLeast(1)) {
        self.init(properties, count: count)
    }

    /// Whether `notification` has every property.
    public func matches(_ notification: ReceivedNotification) -> Bool {
        properties.allSatisfy { $0.check(notification).matched }
    }

    /// nil when `notifications` satisfy the expectation; otherwise the failure message (``ExpectationEvaluator``).
    public func failureMessage(in notifications: [ReceivedNotification]) -> String? {
        ExpectationEvaluator.failureMessage(for: self, in: notifications)
    }

    /// E.g. `a notification with topic com.example.shop, alert title "Shipped" that, on a background app,
    /// shows a banner`.
    public var description: String {
        properties.isEmpty ? count.description : "\(count) " + NotificationProperty.phrase(properties)
    }
}
