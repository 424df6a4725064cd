import XCTest

@testable import APNsModel
@testable import DeviceSimulation

/// Rule 5's taps, and the cases the model does not cover.
final class TapTests: XCTestCase {
    func tap(_ payload: String, _ device: DeviceProfile, action: String? = nil) -> TapSimulation {
        DeliverySimulator.simulateTap(
            SimulationInput(pushType: .alert, payload: json(payload)), on: device, actionIdentifier: action)
    }

    func testTapRunsDidReceiveAfterLaunchingWhenNeeded() {
        let expectations: [(AppState, [DeliveryEvent])] = [
            (.foreground, [.didReceiveResponse]), (.background, [.didReceiveResponse]),
            (.notRunning, [.launch, .didReceiveResponse]), (.forceQuit, [.launch, .didReceiveResponse]),
        ]
        for (state, events) in expectations {
            let result = tap(Payloads.alert, DeviceProfile(state: state))
            XCTAssertEqual(result.events, events, "\(state)")
            XCTAssertEqual(result.actionIdentifier, TapSimulation.defaultActionIdentifier)
        }
    }

    func testActionButtonsNeedACategory() {
        let withCategory = tap(
            ##"{"aps": {"alert": "Hi", "category": "MESSAGE_CATEGORY"}}"##, DeviceProfile(state: .background),
            action: "LIKE_ACTION")
        XCTAssertEqual(withCategory.events, [.didReceiveResponse])
        XCTAssertEqual(withCategory.actionIdentifier, "LIKE_ACTION")
        let without = tap(Payloads.alert, DeviceProfile(state: .background), action: "LIKE_ACTION")
        XCTAssertEqual(without.events, [])
        XCTAssertEqual(without.warnings, ["the payload has no category, so the notification has no action buttons to tap"])
    }

    func testNothingPresentedMeansNothingToTap() {
        let result = tap(Payloads.alert, DeviceProfile(authorization: .denied))
        XCTAssertEqual(result.events, [])
        XCTAssertEqual(result.warnings, ["nothing was presented, so there is nothing to tap"])
    }

    func testLiveActivityAlertTapIsUnknown() {
        let result = DeliverySimulator.simulateTap(
            SimulationInput(
                pushType: .liveactivity,
                payload: json(
                    ##"{"aps": {"event": "update", "timestamp": 1, "content-state": {}, "alert": {"title": "t", "body": "b"}}}"##
                )),
            on: DeviceProfile())
        XCTAssertEqual(result.events, [])
        XCTAssertEqual(
            result.unknown, "taps on liveactivity pushes are outside the model: rule 5 covers ordinary notifications")
    }

    func testInAppTapIsUnknown() {
        let result = tap(
            ##"{"aps": {"alert": {"title": "T", "body": "B"}}, "inAppSymbol": "s", "inAppColor": "#000000"}"##,
            DeviceProfile(inAppRouting: true))
        XCTAssertNotNil(result.unknown)
    }
}

final class UnknownCaseTests: XCTestCase {
    func testCasesOutsideTheModelSayWhy() {
        let cases: [(String, PushType?, String)] = [
            (##"[1]"##, .alert, "the payload is a JSON array, not an object: the model covers objects only"),
            (##"{"orderId": 1}"##, .alert, "the payload has no aps dictionary: the model does not cover what iOS does with it"),
            (##"{"aps": 3}"##, .alert, "aps is a JSON integer, not a dictionary"),
            (##"{"aps": {"thread-id": "x"}}"##, .alert,
             "aps has no alert, sound or badge and no content-available: 1: the model does not cover what iOS does with it"),
            (##"{"aps": {"event": "update", "timestamp": 1, "content-state": {}}}"##, nil,
             "aps.event without apns-push-type liveactivity: the model does not cover untyped Live Activity pushes"),
        ]
        for (payload, type, reason) in cases {
            XCTAssertEqual(simulate(payload, pushType: type).unknown, reason, payload)
        }
    }

    func testBackgroundTypeWithAnAlertIsUnknownButStillDescribed() {
        let result = simulate(Payloads.alertAndContentAvailable, pushType: .background, priority: .considerPower)
        XCTAssertNotNil(result.unknown)
        XCTAssertEqual(result.events, [.willPresent, .didReceiveRemoteNotification])
    }
}
