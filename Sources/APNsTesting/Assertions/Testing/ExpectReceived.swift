import Testing

/// Records an issue unless the mock received `count` notifications (at least one by default) with every one
/// of `properties`; returns whether it did. The issue says it as `mockapns expect` does: the matches, then the closest misses.
///
/// ```swift
/// expectReceived(mock, .token(token), .alertTitle("Your order shipped"), .customKey("orderID", "42"))
/// ```
@discardableResult
public func expectReceived(
    _ mock: APNsMock, _ properties: NotificationProperty..., count: NotificationCount = .atLeast(1),
    sourceLocation: SourceLocation = #_sourceLocation
) -> Bool {
    expectNotifications(mock.notifications, meet: NotificationExpectation(properties, count: count), sourceLocation: sourceLocation)
}

/// Records an issue if the mock received any notification with every one of `properties` (any at all when
/// none are given); returns whether it received none.
@discardableResult
public func expectNotReceived(
    _ mock: APNsMock, _ properties: NotificationProperty..., sourceLocation: SourceLocation = #_sourceLocation
) -> Bool {
    expectNotifications(mock.notifications, meet: NotificationExpectation(properties, count: .none), sourceLocation: sourceLocation)
}

/// Records an issue unless `notification` has every one of `properties`; returns whether it has them.
@discardableResult
public func expectNotification(
    _ notification: ReceivedNotification, _ properties: NotificationProperty...,
    sourceLocation: SourceLocation = #_sourceLocation
) -> Bool {
    guard let message = ExpectationEvaluator.failureMessage(for: properties, in: notification) else { return true }
    Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
    return false
}

/// Records an issue unless `notifications` satisfy `expectation`; returns whether they do.
@discardableResult
public func expectNotifications(
    _ notifications: [ReceivedNotification], meet expectation: NotificationExpectation,
    sourceLocation: SourceLocation = #_sourceLocation
) -> Bool {
    guard let message = expectation.failureMessage(in: notifications) else { return true }
    Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
    return false
}
