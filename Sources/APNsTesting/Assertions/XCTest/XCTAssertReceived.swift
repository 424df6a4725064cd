import XCTest

/// Fails the test unless the mock received `count` notifications (at least one by default) with every one
/// of `properties`. The message says it as `mockapns expect` does: the matches, then the closest misses.
///
/// ```swift
/// XCTAssertReceived(mock, .token(token), .alertTitle("Your order shipped"), .customKey("orderID", "42"))
/// XCTAssertReceived(mock, .rejected(.unregistered), count: .exactly(1))
/// ```
public func XCTAssertReceived(
    _ mock: APNsMock, _ properties: NotificationProperty..., count: NotificationCount = .atLeast(1),
    file: StaticString = #filePath, line: UInt = #line
) {
    XCTAssertNotifications(mock.notifications, meet: NotificationExpectation(properties, count: count), file: file, line: line)
}

/// Fails the test if the mock received any notification with every one of `properties` (any at all when
/// none are given).
public func XCTAssertNotReceived(
    _ mock: APNsMock, _ properties: NotificationProperty..., file: StaticString = #filePath, line: UInt = #line
) {
    XCTAssertNotifications(mock.notifications, meet: NotificationExpectation(properties, count: .none), file: file, line: line)
}

/// Fails the test unless `notification` has every one of `properties`.
public func XCTAssertNotification(
    _ notification: ReceivedNotification, _ properties: NotificationProperty...,
    file: StaticString = #filePath, line: UInt = #line
) {
    if let message = ExpectationEvaluator.failureMessage(for: properties, in: notification) {
        XCTFail(message, file: file, line: line)
    }
}

/// Fails the test unless `notifications` satisfy `expectation`.
public func XCTAssertNotifications(
    _ notifications: [ReceivedNotification], meet expectation: NotificationExpectation,
    file: StaticString = #filePath, line: UInt = #line
) {
    if let message = expectation.failureMessage(in: notifications) {
        XCTFail(message, file: file, line: line)
    }
}
