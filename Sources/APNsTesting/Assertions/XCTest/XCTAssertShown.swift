import XCTest

/// Fails the test unless `device`'s lock screen shows a notification with `title` (and `body`, when given). The
/// message lists what the device shows and what replaced, dropped or throttled its other pushes.
///
/// ```swift
/// XCTAssertShown(mock.device(token), title: "Order 42 shipped")
/// ```
public func XCTAssertShown(
    _ device: VirtualDevice, title: String, body: String? = nil, file: StaticString = #filePath, line: UInt = #line
) {
    if let message = device.failureMessage(title: title, body: body) {
        XCTFail(message, file: file, line: line)
    }
}

/// Fails the test if `device`'s lock screen shows a notification with `title` (and `body`, when given).
public func XCTAssertNotShown(
    _ device: VirtualDevice, title: String, body: String? = nil, file: StaticString = #filePath, line: UInt = #line
) {
    if device.shows(title: title, body: body) {
        XCTFail("Expected the lock screen not to show \"\(title)\", but " + device.summary, file: file, line: line)
    }
}
