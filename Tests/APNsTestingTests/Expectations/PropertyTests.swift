import APNsModel
import APNsTesting
import TestSupport
import XCTest

/// Every built-in property, holding and not holding, with the words a failure shows.
final class PropertyTests: LeakCheckedTestCase {
    private let shipped = RecordMaker.notification(priority: "5", collapseID: "order-42")

    private func assertHolds(_ property: NotificationProperty, _ notification: ReceivedNotification? = nil,
                             file: StaticString = #filePath, line: UInt = #line) {
        let check = property.check(notification ?? shipped)
        XCTAssertTrue(check.matched, "\(property) should hold; got \(check.actual)", file: file, line: line)
    }

    private func assertFails(_ property: NotificationProperty, _ notification: ReceivedNotification? = nil, actual: String,
                             file: StaticString = #filePath, line: UInt = #line) {
        let check = property.check(notification ?? shipped)
        XCTAssertFalse(check.matched, "\(property) should not hold", file: file, line: line)
        XCTAssertEqual(check.actual, actual, file: file, line: line)
    }

    func testToken() {
        assertHolds(.token(Tokens.first.uppercased()))
        assertFails(.token(Tokens.second), actual: Tokens.first)
    }

    func testTopic() {
        assertHolds(.topic("com.example.shop"))
        assertFails(.topic("com.example.other"), actual: "com.example.shop")
        assertFails(.topic("com.example.shop"), RecordMaker.notification(topic: nil), actual: "absent")
        XCTAssertEqual(NotificationProperty.topic("com.example.shop").description, "topic com.example.shop")
    }

    func testPushType() {
        assertHolds(.pushType(.alert))
        assertFails(.pushType(.background), actual: "alert")
        assertFails(.pushType(.alert), RecordMaker.notification(pushType: nil), actual: "absent")
    }

    func testPriority() {
        assertHolds(.priority(.considerPower))
        assertFails(.priority(.immediate), actual: "5")
        assertHolds(.priority(.immediate), RecordMaker.notification())
        assertFails(.priority(.considerPower), RecordMaker.notification(), actual: "absent (10 by default)")
    }

    func testCollapseID() {
        assertHolds(.collapseID("order-42"))
        assertFails(.collapseID("order-43"), actual: #""order-42""#)
    }

    func testAlertTitleAndBody() {
        assertHolds(.alertTitle("Your order shipped"))
        assertHolds(.alertBody("Order 42 is on its way"))
        assertFails(.alertTitle("Order delayed"), actual: #""Your order shipped""#)
        assertFails(.alertBody("Late"), actual: #""Order 42 is on its way""#)
        assertFails(.alertTitle("Hi"), RecordMaker.notification(payload: Payloads.silent), actual: "absent")
        assertHolds(.alertBody("Plain"), RecordMaker.notification(payload: #"{"aps":{"alert":"Plain"}}"#))
        XCTAssertEqual(NotificationProperty.alertTitle("Hi").description, #"alert title "Hi""#)
    }

    func testBadge() {
        assertHolds(.badge(1))
        assertFails(.badge(2), actual: "1")
    }

    func testCustomKeys() {
        assertHolds(.customKey("orderID", "42"))
        assertFails(.customKey("orderID", 42), actual: #""42""#)
        assertFails(.customKey("customerID", "7"), actual: "absent")
        assertHolds(.customKey("sync", true), RecordMaker.notification(payload: Payloads.silent))
        assertHolds(.customKey("n", 3), RecordMaker.notification(payload: #"{"aps":{},"n":3}"#))
        assertHolds(.customKey("o", JSONValue.object([.init("a", .null)])), RecordMaker.notification(payload: #"{"aps":{},"o":{"a":null}}"#))
        assertHolds(.hasCustomKey("orderID"))
        assertFails(.hasCustomKey("aps"), actual: "absent")
        XCTAssertEqual(NotificationProperty.customKey("orderID", "42").description, #"custom key orderID = "42""#)
    }

    func testResponse() {
        let unregistered = RecordMaker.notification(status: 410, reason: "Unregistered")
        assertHolds(.accepted)
        assertFails(.accepted, unregistered, actual: "rejected 410 Unregistered")
        assertHolds(.rejected(.unregistered), unregistered)
        assertFails(.rejected(.unregistered), actual: "accepted (200)")
        assertFails(.rejected(.badDeviceToken), unregistered, actual: "rejected 410 Unregistered")
        assertHolds(.status(410), unregistered)
        assertFails(.status(503), RecordMaker.notification(status: 0), actual: "not answered (stall)")
    }

    func testCustomPredicate() {
        assertHolds(.matching("a small payload") { $0.payloadBytes < 4096 })
        assertFails(.matching("a payload over 4 KB") { $0.payloadBytes > 4096 }, actual: "does not hold")
    }
}
