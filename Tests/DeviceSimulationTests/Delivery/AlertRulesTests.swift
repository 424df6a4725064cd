import XCTest

@testable import APNsModel
@testable import DeviceSimulation

/// Rules 2, 3, 7, 8 and 9.
final class AlertRulesTests: XCTestCase {
    // MARK: Rule 2: Notification Service Extension

    func testServiceExtensionRunsFirstInEveryStateWhenItsConditionsHold() {
        for state in AppState.allCases {
            let device = DeviceProfile(state: state, notificationServiceExtension: true)
            let result = simulate(Payloads.mutable, on: device)
            XCTAssertEqual(result.events.first, .serviceExtension, "\(state)")
            XCTAssertEqual(result.presentation.kind, .banner, "\(state)")
        }
    }

    func testServiceExtensionConditions() {
        let withExtension = DeviceProfile(notificationServiceExtension: true)
        let cases: [(String, DeviceProfile, Bool)] = [
            (Payloads.mutable, withExtension, true),
            (Payloads.mutable, DeviceProfile(), false),
            (Payloads.alert, withExtension, false),
            (##"{"aps": {"badge": 1, "mutable-content": 1}}"##, withExtension, false),
            (Payloads.mutable, DeviceProfile(authorization: .denied, notificationServiceExtension: true), false),
            (Payloads.mutable, DeviceProfile(authorization: .notDetermined, notificationServiceExtension: true), true),
            (Payloads.mutable, DeviceProfile(authorization: .provisional, notificationServiceExtension: true), true),
        ]
        for (payload, device, runs) in cases {
            let result = simulate(payload, on: device)
            XCTAssertEqual(result.events.contains(.serviceExtension), runs, "\(payload) \(device.authorization)")
        }
    }

    // MARK: Rule 3: foreground presentation

    func testForegroundPresentationIsWhatTheDelegateReturns() {
        let cases: [(ForegroundPresentation, Presentation, [DeliveryEvent])] = [
            (.standard, Presentation(kind: .banner, sound: true, badge: 3), [.willPresent]),
            (.options([.list]), Presentation(kind: .list, sound: false, badge: nil), [.willPresent]),
            (.options([.banner, .list]), Presentation(kind: .banner), [.willPresent]),
            (.options([.sound]), Presentation(kind: .none, sound: true), [.willPresent]),
            (.options([.badge]), Presentation(kind: .none, badge: 3), [.willPresent]),
            (.options([]), .nothing, [.willPresent]),
            (.noDelegate, .nothing, []),
        ]
        for (options, presentation, events) in cases {
            let result = simulate(Payloads.alert, on: DeviceProfile(foregroundPresentation: options))
            XCTAssertEqual(result.presentation, presentation, "\(options)")
            XCTAssertEqual(result.events, events, "\(options)")
        }
        let swallowed = simulate(Payloads.alert, on: DeviceProfile(foregroundPresentation: .noDelegate))
        XCTAssertEqual(
            swallowed.warnings,
            ["the app has no UNUserNotificationCenter delegate: iOS does not present notifications in the foreground"])
    }

    // MARK: Rule 7: authorization

    func testAuthorizationVariants() {
        let cases: [(Authorization, AppState, Presentation, [DeliveryEvent])] = [
            (.authorized, .background, Presentation(kind: .banner, sound: true, badge: 3), []),
            (.provisional, .background, Presentation(kind: .list, sound: false, badge: 3), []),
            (.denied, .background, .nothing, []),
            (.notDetermined, .background, .nothing, []),
            (.authorized, .foreground, Presentation(kind: .banner, sound: true, badge: 3), [.willPresent]),
            (.provisional, .foreground, Presentation(kind: .list, sound: false, badge: 3), [.willPresent]),
            (.denied, .foreground, .nothing, []),
            (.notDetermined, .foreground, .nothing, []),
        ]
        for (authorization, state, presentation, events) in cases {
            let result = simulate(Payloads.alert, on: DeviceProfile(state: state, authorization: authorization))
            XCTAssertEqual(result.presentation, presentation, "\(authorization) \(state)")
            XCTAssertEqual(result.events, events, "\(authorization) \(state)")
            XCTAssertNil(result.unknown)
        }
    }

    func testDeniedStillRunsTheContentAvailableCallback() {
        let result = simulate(
            Payloads.alertAndContentAvailable, on: DeviceProfile(state: .background, authorization: .denied))
        XCTAssertEqual(result.presentation, .nothing)
        XCTAssertEqual(result.events, [.didReceiveRemoteNotification])
        XCTAssertEqual(result.warnings, ["notifications are denied: nothing is presented"])
    }

    // MARK: Rule 8: interruption level

    func testInterruptionLevels() {
        let state = DeviceProfile(state: .background)
        let entitled = DeviceProfile(state: .background, entitlements: [.criticalAlerts, .timeSensitive])
        let cases: [(String, DeviceProfile, Presentation, [String])] = [
            (##"{"aps": {"alert": "a", "sound": "default", "interruption-level": "passive"}}"##, state,
             Presentation(kind: .list, sound: false),
             ["interruption-level passive: added to Notification Center without sound or lighting the screen"]),
            (##"{"aps": {"alert": "a", "sound": "default", "interruption-level": "active"}}"##, state,
             Presentation(kind: .banner, sound: true), []),
            (##"{"aps": {"alert": "a", "sound": "default", "interruption-level": "time-sensitive"}}"##, state,
             Presentation(kind: .banner, sound: true),
             ["interruption-level time-sensitive without the time-sensitive entitlement: treated as active"]),
            (##"{"aps": {"alert": "a", "sound": "default", "interruption-level": "time-sensitive"}}"##, entitled,
             Presentation(kind: .banner, sound: true), []),
            (##"{"aps": {"alert": "a", "sound": "default", "interruption-level": "critical"}}"##, state,
             Presentation(kind: .banner, sound: true),
             ["interruption-level critical without the critical-alerts entitlement: treated as active"]),
            (##"{"aps": {"alert": "a", "sound": {"critical": 1, "name": "default", "volume": 1.0}}}"##, state,
             Presentation(kind: .banner, sound: true),
             ["sound.critical: 1 without the critical-alerts entitlement: treated as active"]),
            (##"{"aps": {"alert": "a", "sound": {"critical": 1, "name": "default"}}}"##, entitled,
             Presentation(kind: .banner, sound: true), []),
        ]
        for (payload, device, presentation, warnings) in cases {
            let result = simulate(payload, on: device)
            XCTAssertEqual(result.presentation, presentation, payload)
            XCTAssertEqual(result.warnings, warnings, payload)
            XCTAssertNil(result.unknown, payload)
        }
    }

    func testUnknownInterruptionLevelIsUnknown() {
        let result = simulate(##"{"aps": {"alert": "a", "interruption-level": "urgent"}}"##)
        XCTAssertEqual(result.unknown, "interruption-level \"urgent\" is not passive, active, time-sensitive or critical")
    }

    // MARK: Rule 9: replacement

    func testCollapseIDReplacesTheEarlierNotification() {
        let result = simulate(Payloads.alert, collapseID: "score-42", on: DeviceProfile(state: .background))
        XCTAssertEqual(
            result.warnings,
            ["apns-collapse-id \"score-42\": replaces any earlier notification with the same ID in Notification Center"])
        let hidden = simulate(Payloads.alert, collapseID: "score-42", on: DeviceProfile(authorization: .denied))
        XCTAssertFalse(hidden.warnings.contains { $0.contains("score-42") })
    }
}
