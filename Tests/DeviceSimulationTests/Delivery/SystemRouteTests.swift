import XCTest

@testable import APNsModel
@testable import DeviceSimulation

/// Rule 10: pushes with their own system handler.
final class SystemRouteTests: XCTestCase {
    static let update = ##"{"aps": {"event": "update", "timestamp": 1700000000, "content-state": {"score": 2}}}"##

    func testLiveActivityEvents() {
        let start =
            ##"{"aps": {"event": "start", "timestamp": 1, "content-state": {}, "attributes-type": "Match", "attributes": {}, "alert": {"title": "Kick-off", "body": "Go"}}}"##
        let cases: [(String, [DeliveryEvent], Presentation)] = [
            (Self.update, [.liveActivityUpdate], .nothing),
            (##"{"aps": {"event": "end", "timestamp": 1, "content-state": {}, "dismissal-date": 2}}"##, [.liveActivityEnd], .nothing),
            (start, [.liveActivityStart], Presentation(kind: .banner)),
            (##"{"aps": {"event": "update", "timestamp": 1, "content-state": {}, "alert": {"title": {"loc-key": "T"}, "body": {"loc-key": "B"}, "sound": "chime.aiff"}}}"##,
             [.liveActivityUpdate], Presentation(kind: .banner, sound: true)),
        ]
        for state in AppState.allCases {
            for (payload, events, presentation) in cases {
                let result = simulate(payload, pushType: .liveactivity, on: DeviceProfile(state: state))
                XCTAssertEqual(result.events, events, payload)
                XCTAssertEqual(result.presentation, presentation, payload)
                XCTAssertNil(result.unknown, payload)
            }
        }
    }

    func testLiveActivityMissingKeysIsIgnored() {
        let result = simulate(##"{"aps": {"event": "start", "timestamp": 1, "content-state": {}}}"##, pushType: .liveactivity)
        XCTAssertEqual(result.events, [])
        XCTAssertEqual(
            result.warnings, ["Live Activity start ignored by ActivityKit: aps lacks attributes-type, attributes, alert"])
    }

    func testLiveActivityUnknownCases() {
        XCTAssertNotNil(simulate(##"{"aps": {"event": "pause"}}"##, pushType: .liveactivity).unknown)
        XCTAssertNotNil(simulate(##"{"aps": {}}"##, pushType: .liveactivity).unknown)
        let alert = simulate(
            ##"{"aps": {"event": "update", "timestamp": 1, "content-state": {}, "alert": {"title": "t", "body": "b"}}}"##,
            pushType: .liveactivity, on: DeviceProfile(authorization: .denied))
        XCTAssertEqual(alert.events, [.liveActivityUpdate])
        XCTAssertNotNil(alert.unknown)
    }

    func testWidgetsAndControlsReload() {
        let ok = ##"{"aps": {"content-changed": true}}"##
        XCTAssertEqual(simulate(ok, pushType: .widgets).events, [.widgetReload])
        XCTAssertEqual(simulate(ok, pushType: .controls).events, [.controlReload])
        let bad = simulate(##"{"aps": {"content-changed": 1}}"##, pushType: .widgets)
        XCTAssertEqual(bad.events, [])
        XCTAssertEqual(bad.warnings, ["widgets push ignored: aps.content-changed is not true"])
    }

    func testVoIPWakesTheAppInEveryState() {
        let expectations: [(AppState, [DeliveryEvent])] = [
            (.foreground, [.voip]), (.background, [.voip]), (.notRunning, [.launch, .voip]),
            (.forceQuit, [.launch, .voip]),
        ]
        for (state, events) in expectations {
            let result = simulate(##"{"callId": "c1"}"##, pushType: .voip, on: DeviceProfile(state: state))
            XCTAssertEqual(result.events, events, "\(state)")
            XCTAssertEqual(result.presentation, .nothing)
            XCTAssertEqual(result.warnings, [])
        }
    }

    func testVoIPWithoutACallIsAWarning() {
        let result = simulate(##"{"callId": "c1"}"##, pushType: .voip, on: DeviceProfile(reportsIncomingCalls: false))
        XCTAssertEqual(result.warnings.count, 1)
        XCTAssertTrue(result.warnings[0].contains("CallKit"))
    }

    func testAlertKeysOnSystemRoutesAreNeverPresented() {
        let result = simulate(##"{"aps": {"alert": "Ring", "sound": "default"}}"##, pushType: .voip)
        XCTAssertEqual(result.presentation, .nothing)
        XCTAssertEqual(result.warnings, ["voip pushes are never presented as alerts: aps alert, sound ignored"])
    }

    func testLocationAndPushToTalk() {
        XCTAssertEqual(simulate(##"{"aps": {}}"##, pushType: .location).events, [.locationPush])
        XCTAssertEqual(
            simulate(##"{"channel": "x"}"##, pushType: .pushtotalk, on: DeviceProfile(state: .notRunning)).events,
            [.launch, .pushToTalk])
    }

    func testTypesOutsideTheModelAreUnknown() {
        for type in [PushType.complication, .fileprovider, .mdm] {
            let result = simulate(##"{"aps": {"alert": "x"}}"##, pushType: type)
            XCTAssertEqual(result.unknown, "\(type.rawValue) pushes are outside the delivery model (device-rules §10)")
        }
    }

    func testAbsentPushTypeIsReadFromTheTopic() {
        let result = simulate(Self.update, pushType: nil, topic: "com.example.app.push-type.liveactivity")
        XCTAssertEqual(result.events, [.liveActivityUpdate])
        XCTAssertEqual(result.warnings, ["no apns-push-type: read as liveactivity from the topic's suffix"])
    }
}
