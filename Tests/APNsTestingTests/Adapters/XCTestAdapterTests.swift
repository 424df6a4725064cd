import APNsTesting
import TestSupport
import XCTest

/// The XCTest helpers report exactly the evaluator's message, at the caller's file and line, and nothing
/// when the expectation holds. Failures are captured by overriding `recordFailure` (XCTExpectFailure does
/// not exist on Linux) and only while `capturing` is set, so anything else still fails the test.
final class XCTestAdapterTests: LeakCheckedTestCase {
    private struct Failure {
        var description: String
        var file: String
        var line: Int
    }

    private var capturing = false
    private var captured: [Failure] = []

    override func recordFailure(withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool) {
        if capturing {
            captured.append(Failure(description: description, file: filePath, line: lineNumber))
        } else {
            super.recordFailure(withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
        }
    }

    private func capture(_ body: () -> Void) -> [Failure] {
        capturing = true
        captured = []
        body()
        capturing = false
        return captured
    }

    func testHoldingExpectationsReportNothing() async throws {
        let mock = try await APNsMock.start()
        addTeardownBlock { await mock.stop() }
        let sender = try await RawSender.connect(to: mock)
        try await sender.send(Payloads.shipped)
        await sender.close()
        let notification = try XCTUnwrap(mock.notifications.first)

        let failures = capture {
            XCTAssertReceived(mock, .token(Tokens.first), .alertTitle("Your order shipped"), .accepted)
            XCTAssertReceived(mock, count: .exactly(1))
            XCTAssertNotReceived(mock, .rejected(.unregistered))
            XCTAssertNotification(notification, .customKey("orderID", "42"), .onDevice(.showsBanner, appState: .background))
            XCTAssertNotifications([notification], meet: NotificationExpectation(.topic("com.example.shop"), count: .exactly(1)))
        }
        XCTAssertTrue(failures.isEmpty, failures.map(\.description).joined(separator: "\n"))
    }

    func testFailuresCarryTheEvaluatorMessageAndTheCallersLine() async throws {
        let mock = try await APNsMock.start()
        addTeardownBlock { await mock.stop() }
        let sender = try await RawSender.connect(to: mock)
        try await sender.send(Payloads.delayed)
        await sender.close()
        let notification = try XCTUnwrap(mock.notifications.first)
        let expectation = NotificationExpectation(.alertTitle("Your order shipped"))

        var lines: [Int] = []
        let failures = capture {
            lines.append(#line + 1)
            XCTAssertReceived(mock, .alertTitle("Your order shipped"))
            lines.append(#line + 1)
            XCTAssertNotReceived(mock, .alertTitle("Order delayed"))
            lines.append(#line + 1)
            XCTAssertNotification(notification, .alertTitle("Your order shipped"))
            lines.append(#line + 1)
            XCTAssertNotifications(mock.notifications, meet: expectation)
        }
        XCTAssertEqual(failures.map(\.line), lines)
        XCTAssertEqual(Set(failures.map(\.file)), [#filePath])
        let evaluatorMessage = try XCTUnwrap(expectation.failureMessage(in: mock.notifications))
        XCTAssertTrue(failures[0].description.contains(evaluatorMessage), failures[0].description)
        XCTAssertTrue(failures[3].description.contains(evaluatorMessage), failures[3].description)
        XCTAssertTrue(failures[1].description.contains("expect: FAILED — wanted no notifications with alert title \"Order delayed\"; 1 matched"),
                      failures[1].description)
        XCTAssertTrue(failures[2].description.contains("Expected notification #1 to have alert title \"Your order shipped\""),
                      failures[2].description)
    }
}
