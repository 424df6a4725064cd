import XCTest

@testable import APNsModel
@testable import DeviceSimulation

/// Rule 1: silent pushes.
final class SilentPushTests: XCTestCase {
    func testBackgroundModeOffStopsBackgroundDeliveryButNotForeground() {
        let expectations: [(AppState, [DeliveryEvent])] = [
            (.foreground, [.didReceiveRemoteNotification]), (.background, []), (.notRunning, []), (.forceQuit, []),
        ]
        for (state, events) in expectations {
            let result = simulate(
                Payloads.silent, pushType: .background, priority: .considerPower,
                on: DeviceProfile(state: state, backgroundModesRemoteNotification: false))
            XCTAssertEqual(result.events, events, "\(state)")
            XCTAssertEqual(result.presentation, .nothing, "\(state)")
            if state == .background || state == .notRunning {
                XCTAssertEqual(
                    result.warnings,
                    ["silent push ignored: the app lacks the Background Modes › Remote notifications capability"])
            }
        }
    }

    func testWarnsOnPriorityTenAndOnAbsentPriority() {
        let ten = simulate(Payloads.silent, pushType: .background, priority: .immediate)
        XCTAssertEqual(ten.warnings, ["silent push with apns-priority 10: Apple requires 5; iOS throttles or drops it"])
        let absent = simulate(Payloads.silent, pushType: .background, priority: nil)
        XCTAssertTrue(absent.warnings[0].contains("without apns-priority"), absent.warnings[0])
        let five = simulate(Payloads.silent, pushType: .background, priority: .considerPower)
        XCTAssertEqual(five.warnings, [])
    }

    func testWarnsOnAPushTypeOtherThanBackground() {
        let alert = simulate(Payloads.silent, pushType: .alert, priority: .considerPower)
        XCTAssertEqual(
            alert.warnings, ["silent push sent with apns-push-type alert: use background, or iOS may delay or drop it"])
        XCTAssertEqual(alert.events, [.didReceiveRemoteNotification])
        let none = simulate(Payloads.silent, pushType: nil, priority: .considerPower)
        XCTAssertEqual(none.warnings, ["silent push without apns-push-type: send background, or iOS may delay or drop it"])
    }

    func testSilentCallbacksRunWhateverTheAuthorization() {
        for authorization in Authorization.allCases {
            let result = simulate(
                Payloads.silent, pushType: .background, priority: .considerPower,
                on: DeviceProfile(state: .background, authorization: authorization))
            XCTAssertEqual(result.events, [.didReceiveRemoteNotification], "\(authorization)")
        }
    }

    func testContentAvailableOtherThanOneIsNotSilent() {
        let result = simulate(##"{"aps": {"content-available": "1"}}"##, pushType: .background, priority: .considerPower)
        XCTAssertEqual(result.events, [])
        XCTAssertEqual(result.warnings, ["content-available is \"1\", not 1: treated as absent"])
        XCTAssertNotNil(result.unknown)
    }
}
