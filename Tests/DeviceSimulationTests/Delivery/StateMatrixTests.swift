import XCTest

@testable import APNsModel
@testable import DeviceSimulation

/// Rules 1, 3, 5 and 6: every app state against a silent push, an alert, and an alert with content-available.
final class StateMatrixTests: XCTestCase {
    struct Row {
        let state: AppState
        let payload: String
        let pushType: PushType
        let priority: Priority
        let kind: Presentation.Kind
        let events: [DeliveryEvent]
        let warnings: [String]
    }

    static let dropped = "silent push dropped: app was force-quit"
    static let ignored = "content-available: 1 ignored: app was force-quit"

    static let rows: [Row] = [
        Row(state: .foreground, payload: Payloads.silent, pushType: .background, priority: .considerPower,
            kind: .none, events: [.didReceiveRemoteNotification], warnings: []),
        Row(state: .background, payload: Payloads.silent, pushType: .background, priority: .considerPower,
            kind: .none, events: [.didReceiveRemoteNotification], warnings: []),
        Row(state: .notRunning, payload: Payloads.silent, pushType: .background, priority: .considerPower,
            kind: .none, events: [.launch, .didReceiveRemoteNotification], warnings: []),
        Row(state: .forceQuit, payload: Payloads.silent, pushType: .background, priority: .considerPower,
            kind: .none, events: [], warnings: [dropped]),

        Row(state: .foreground, payload: Payloads.alert, pushType: .alert, priority: .immediate,
            kind: .banner, events: [.willPresent], warnings: []),
        Row(state: .background, payload: Payloads.alert, pushType: .alert, priority: .immediate,
            kind: .banner, events: [], warnings: []),
        Row(state: .notRunning, payload: Payloads.alert, pushType: .alert, priority: .immediate,
            kind: .banner, events: [], warnings: []),
        Row(state: .forceQuit, payload: Payloads.alert, pushType: .alert, priority: .immediate,
            kind: .banner, events: [], warnings: []),

        Row(state: .foreground, payload: Payloads.alertAndContentAvailable, pushType: .alert, priority: .immediate,
            kind: .banner, events: [.willPresent, .didReceiveRemoteNotification], warnings: []),
        Row(state: .background, payload: Payloads.alertAndContentAvailable, pushType: .alert, priority: .immediate,
            kind: .banner, events: [.didReceiveRemoteNotification], warnings: []),
        Row(state: .notRunning, payload: Payloads.alertAndContentAvailable, pushType: .alert, priority: .immediate,
            kind: .banner, events: [.launch, .didReceiveRemoteNotification], warnings: []),
        Row(state: .forceQuit, payload: Payloads.alertAndContentAvailable, pushType: .alert, priority: .immediate,
            kind: .banner, events: [], warnings: [ignored]),
    ]

    func testEveryStateAgainstSilentAlertAndBoth() {
        for row in Self.rows {
            let result = simulate(
                row.payload, pushType: row.pushType, priority: row.priority, on: DeviceProfile(state: row.state))
            let label = "\(row.state) \(row.payload)"
            XCTAssertEqual(result.presentation.kind, row.kind, label)
            XCTAssertEqual(result.events, row.events, label)
            XCTAssertEqual(result.warnings, row.warnings, label)
            XCTAssertNil(result.unknown, label)
        }
    }

    func testBackgroundAlertPresentsWhatThePayloadAsks() {
        for state in [AppState.background, .notRunning, .forceQuit] {
            let result = simulate(Payloads.alert, on: DeviceProfile(state: state))
            XCTAssertEqual(result.presentation, Presentation(kind: .banner, sound: true, badge: 3), "\(state)")
        }
        let quiet = simulate(##"{"aps": {"alert": "Hi"}}"##, on: DeviceProfile(state: .background))
        XCTAssertEqual(quiet.presentation, Presentation(kind: .banner, sound: false, badge: nil))
    }

    func testSoundOrBadgeOnlyPresentsNoBanner() {
        let result = simulate(##"{"aps": {"badge": 9, "sound": "bingbong.aiff"}}"##, on: DeviceProfile(state: .background))
        XCTAssertEqual(result.presentation, Presentation(kind: .none, sound: true, badge: 9))
    }
}
