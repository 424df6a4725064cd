import APNsModel
import APNsTesting
import TestSupport
import XCTest

/// The on-device properties, from the delivery simulator, holding and failing with readable words.
final class DeviceOutcomeTests: LeakCheckedTestCase {
    private let alert = RecordMaker.notification(payload: Payloads.shipped)
    private let silent = RecordMaker.notification(pushType: "background", priority: "5", payload: Payloads.silent)
    private let inApp = RecordMaker.notification(payload: Payloads.inApp)
    private let rich = RecordMaker.notification(payload: Payloads.rich)

    func testPresentsInApp() {
        let property = NotificationProperty.onDevice(.presentsInApp(symbol: "shippingbox.fill", color: "#34c759", size: .normal, haptics: .success))
        XCTAssertTrue(property.check(inApp).matched)
        XCTAssertEqual(property.name, "on a foreground app with in-app routing")
        XCTAssertEqual(property.expected, "presents in-app with symbol shippingbox.fill, colour #34c759, size normal, haptics success")

        let wrongColour = NotificationProperty.onDevice(.presentsInApp(color: "#FF0000")).check(inApp)
        XCTAssertFalse(wrongColour.matched)
        XCTAssertTrue(wrongColour.actual.hasPrefix(
            "presents in-app with symbol shippingbox.fill, colour #34C759, size normal, haptics success"), wrongColour.actual)

        let plain = NotificationProperty.onDevice(.presentsInApp()).check(alert)
        XCTAssertFalse(plain.matched)
        XCTAssertTrue(plain.actual.hasPrefix("shows a banner with sound, badge 1; calls willPresent"), plain.actual)
    }

    func testShowsBanner() {
        XCTAssertTrue(NotificationProperty.onDevice(.showsBanner, appState: .background).check(alert).matched)
        XCTAssertTrue(NotificationProperty.onDevice(.showsBanner).check(alert).matched)
        let check = NotificationProperty.onDevice(.showsBanner, appState: .background).check(silent)
        XCTAssertFalse(check.matched)
        XCTAssertTrue(check.actual.hasPrefix("shows nothing; launches the app") || check.actual.hasPrefix("shows nothing; wakes the app"), check.actual)
    }

    func testNotificationCenterOnly() {
        let provisional = DeviceProfile(state: .background, authorization: .provisional)
        XCTAssertTrue(NotificationProperty.onDevice(.appearsInNotificationCenterOnly, device: provisional).check(alert).matched)
        XCTAssertFalse(NotificationProperty.onDevice(.appearsInNotificationCenterOnly, appState: .background).check(alert).matched)
        XCTAssertEqual(NotificationProperty.onDevice(.appearsInNotificationCenterOnly, device: provisional).name,
                       "on a background app, notifications provisional")
    }

    func testWakesAppSilently() {
        XCTAssertTrue(NotificationProperty.onDevice(.wakesAppSilently, appState: .background).check(silent).matched)
        let forceQuit = NotificationProperty.onDevice(.wakesAppSilently, appState: .forceQuit)
        XCTAssertEqual(forceQuit.description, "that, on a force-quit app, shows nothing and wakes the app")
        let check = forceQuit.check(silent)
        XCTAssertFalse(check.matched)
        XCTAssertTrue(check.actual.hasPrefix("shows nothing; no app code runs ("), check.actual)
    }

    func testIsDropped() {
        XCTAssertTrue(NotificationProperty.onDevice(.isDropped, appState: .forceQuit).check(silent).matched)
        let check = NotificationProperty.onDevice(.isDropped, appState: .background).check(alert)
        XCTAssertFalse(check.matched)
        XCTAssertTrue(check.actual.hasPrefix("shows a banner"), check.actual)
    }

    func testRunsServiceExtension() {
        let property = NotificationProperty.onDevice(.runsServiceExtension, appState: .forceQuit)
        XCTAssertEqual(property.name, "on a force-quit app with a service extension")
        XCTAssertTrue(property.check(rich).matched)
        XCTAssertFalse(property.check(alert).matched)
        let withoutExtension = NotificationProperty.onDevice(.runsServiceExtension, device: DeviceProfile(state: .background))
        XCTAssertFalse(withoutExtension.check(rich).matched)
    }

    func testUnknownIsNeverAMatch() {
        let notJSON = RecordMaker.notification(payload: "not json")
        let check = NotificationProperty.onDevice(.isDropped).check(notJSON)
        XCTAssertFalse(check.matched)
        XCTAssertTrue(check.actual.hasPrefix("outside the delivery model:"), check.actual)
    }
}
