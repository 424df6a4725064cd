import APNsTesting
import TestSupport
import XCTest

/// The Swift kit's failure messages, in `mockapns expect`'s words (``ExpectationReport``): what was wanted and how many
/// matched, then the last matches and the closest misses.
final class EvaluatorMessageTests: LeakCheckedTestCase {
    private let received = [
        RecordMaker.notification(seq: 1, topic: "com.example.other", payload: Payloads.shipped),
        RecordMaker.notification(seq: 2, payload: Payloads.delayed),
        RecordMaker.notification(seq: 3, payload: Payloads.shipped),
    ]

    func testHoldingExpectationHasNoMessage() {
        XCTAssertNil(NotificationExpectation(.topic("com.example.shop"), .alertTitle("Order delayed")).failureMessage(in: received))
        XCTAssertNil(NotificationExpectation(.topic("com.example.shop"), count: .exactly(2)).failureMessage(in: received))
        XCTAssertNil(NotificationExpectation(count: .atLeast(3)).failureMessage(in: received))
        XCTAssertNil(NotificationExpectation(.rejected(.unregistered), count: .none).failureMessage(in: received))
        XCTAssertNil(ExpectationEvaluator.failureMessage(for: [.alertTitle("Order delayed")], in: received[1]))
    }

    func testNothingReceived() {
        XCTAssertEqual(
            NotificationExpectation(.topic("com.example.shop"), .alertTitle("Your order shipped")).failureMessage(in: []), """
            expect: FAILED — wanted at least 1 notification with topic com.example.shop, alert title "Your order shipped"; \
            0 matched (of 0 notifications in the mock).
            No notifications arrived at all.
            """)
    }

    func testNoneMatchedListsClosestFirst() {
        let expectation = NotificationExpectation(.topic("com.example.shop"), .alertTitle("Your order shipped"), .customKey("orderID", "43"))
        XCTAssertEqual(expectation.failureMessage(in: received), """
            expect: FAILED — wanted at least 1 notification with topic com.example.shop, alert title "Your order shipped", \
            custom key orderID = "43"; 0 matched (of 3 notifications in the mock).
            Closest notifications:
              #3 alert push to 00fc13ad…1de8f0, topic com.example.shop: accepted (200); title "Your order shipped", \
            body "Order 42 is on its way"  meets 2 of 3; missed: custom key orderID = "43" (found "42")
              #2 alert push to 00fc13ad…1de8f0, topic com.example.shop: accepted (200); title "Order delayed", \
            body "Order 42 is late"  meets 1 of 3; missed: alert title "Your order shipped" (found "Order delayed"); \
            custom key orderID = "43" (found "42")
              #1 alert push to 00fc13ad…1de8f0, topic com.example.other: accepted (200); title "Your order shipped", \
            body "Order 42 is on its way"  meets 1 of 3; missed: topic com.example.shop (found com.example.other); \
            custom key orderID = "43" (found "42")
            """)
    }

    func testTooFewMatched() {
        let expectation = NotificationExpectation(.alertTitle("Your order shipped"), count: .atLeast(3))
        XCTAssertEqual(expectation.failureMessage(in: received), """
            expect: FAILED — wanted at least 3 notifications with alert title "Your order shipped"; 2 matched (of 3 notifications in the mock).
            Matching notifications:
              #1 alert push to 00fc13ad…1de8f0, topic com.example.other: accepted (200); title "Your order shipped", body "Order 42 is on its way"
              #3 alert push to 00fc13ad…1de8f0, topic com.example.shop: accepted (200); title "Your order shipped", body "Order 42 is on its way"
            Closest notifications:
              #2 alert push to 00fc13ad…1de8f0, topic com.example.shop: accepted (200); title "Order delayed", body "Order 42 is late"  \
            meets 0 of 1; missed: alert title "Your order shipped" (found "Order delayed")
            """)
    }

    func testTooManyMatched() {
        XCTAssertEqual(NotificationExpectation(.alertTitle("Your order shipped"), count: .exactly(1)).failureMessage(in: received), """
            expect: FAILED — wanted exactly 1 notification with alert title "Your order shipped"; 2 matched (of 3 notifications in the mock).
            Matching notifications:
              #1 alert push to 00fc13ad…1de8f0, topic com.example.other: accepted (200); title "Your order shipped", body "Order 42 is on its way"
              #3 alert push to 00fc13ad…1de8f0, topic com.example.shop: accepted (200); title "Your order shipped", body "Order 42 is on its way"
            """)
        XCTAssertEqual(NotificationExpectation(.topic("com.example.other"), count: .none).failureMessage(in: received), """
            expect: FAILED — wanted no notifications with topic com.example.other; 1 matched (of 3 notifications in the mock).
            Matching notifications:
              #1 alert push to 00fc13ad…1de8f0, topic com.example.other: accepted (200); title "Your order shipped", body "Order 42 is on its way"
            """)
    }

    func testCountWithoutProperties() {
        XCTAssertEqual(NotificationExpectation(count: .exactly(2)).failureMessage(in: received)?.components(separatedBy: "\n").first,
                       "expect: FAILED — wanted exactly 2 notifications with any notification; 3 matched (of 3 notifications in the mock).")
        XCTAssertEqual(NotificationExpectation(count: .atLeast(4)).failureMessage(in: received)?.components(separatedBy: "\n").last,
                       "No other notifications to compare with.")
    }

    func testRejectionAndDeviceOutcomeInWords() {
        let rejected = RecordMaker.notification(seq: 7, status: 410, reason: "Unregistered")
        let message = NotificationExpectation(.accepted, .onDevice(.isDropped, appState: .forceQuit)).failureMessage(in: [rejected])
        XCTAssertEqual(message, """
            expect: FAILED — wanted at least 1 notification with response accepted (200) that, on a force-quit app, is dropped \
            (nothing shown, no app code runs); 0 matched (of 1 notification in the mock).
            Closest notifications:
              #7 alert push to 00fc13ad…1de8f0, topic com.example.shop: rejected 410 Unregistered; title "Your order shipped", \
            body "Order 42 is on its way"  meets 0 of 2; missed: response accepted (200) (found rejected 410 Unregistered); \
            on a force-quit app: is dropped (nothing shown, no app code runs) (found shows a banner with sound, badge 1; no app code runs)
            """)
    }

    func testLongListsKeepTheClosestFewNewestFirst() {
        let many = (1...8).map { RecordMaker.notification(seq: UInt64($0), payload: Payloads.delayed) }
        let lines = NotificationExpectation(.alertTitle("Your order shipped")).failureMessage(in: many)?.components(separatedBy: "\n") ?? []
        XCTAssertEqual(lines.first, #"expect: FAILED — wanted at least 1 notification with alert title "Your order shipped"; 0 matched (of 8 notifications in the mock)."#)
        XCTAssertEqual(lines.filter { $0.hasPrefix("  #") }.map { String($0.prefix(4)) }, ["  #8", "  #7", "  #6"])
        XCTAssertEqual(lines.count, 2 + 3, "the verdict, a heading and the three closest")
    }

    func testSingleNotification() {
        XCTAssertEqual(ExpectationEvaluator.failureMessage(for: [.alertTitle("Your order shipped"), .customKey("orderID", "42")], in: received[1]), """
            Expected notification #2 to have alert title "Your order shipped", custom key orderID = "42", but it did not:
              #2 alert push to 00fc13ad…1de8f0, topic com.example.shop: accepted (200); title "Order delayed", body "Order 42 is late" — has 1 of 2
                  alert title: expected "Your order shipped", got "Order delayed"
            """)
    }

    func testDeviceClausesReadAsClauses() {
        let expectation = NotificationExpectation(
            .onDevice(.showsBanner, appState: .background), .topic("com.example.shop"), .onDevice(.isDropped, appState: .forceQuit))
        XCTAssertEqual(expectation.description, "a notification with topic com.example.shop that, on a background app, shows a banner "
                       + "and that, on a force-quit app, is dropped (nothing shown, no app code runs)")
        XCTAssertEqual(ExpectationEvaluator.failureMessage(for: [.alertTitle("Order delayed"), .onDevice(.wakesAppSilently, appState: .background)],
                                                           in: received[1])?.components(separatedBy: "\n").first,
                       #"Expected notification #2 to be one with alert title "Order delayed" that, on a background app, shows nothing and wakes the app, but it was not:"#)
    }

    func testNotificationSummaries() {
        XCTAssertEqual(RecordMaker.notification(seq: 4, token: "abcd", topic: nil, pushType: nil, payload: "{").summary,
                       "#4 push to abcd: accepted (200); body is not JSON")
        XCTAssertEqual(RecordMaker.notification(seq: 5, payload: Payloads.silent, status: 0).summary,
                       "#5 alert push to 00fc13ad…1de8f0, topic com.example.shop: not answered (stall)")
    }
}
