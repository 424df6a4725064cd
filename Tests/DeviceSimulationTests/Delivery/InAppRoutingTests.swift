import XCTest

@testable import APNsModel
@testable import DeviceSimulation

/// Rule 4: in-app routing, with custom data from every layout.
final class InAppRoutingTests: XCTestCase {
    let routing = DeviceProfile(inAppRouting: true)

    func testCustomDataFromEveryLayoutRoutesInApp() {
        let bolt = InAppStyle(symbol: "bolt.fill", color: "#ae0000", size: .compact, haptics: .error)
        let payloads = [
            ##"{"aps": {"alert": {"title": "T", "body": "B"}}, "inAppSymbol": "bolt.fill", "inAppColor": "#ae0000", "inAppSize": "compact", "inAppHaptics": "error"}"##,
            ##"{"aps": {"alert": {"title": "T", "body": "B"}}, "custom": {"i": "id", "a": {"inAppSymbol": "bolt.fill", "inAppColor": "#ae0000", "inAppSize": "compact", "inAppHaptics": "error"}}}"##,
            ##"{"aps": {"alert": {"title": "T", "body": "B"}}, "os_data": {"i": "id"}, "inAppSymbol": "bolt.fill", "inAppColor": "#ae0000", "inAppSize": "compact", "inAppHaptics": "error"}"##,
        ]
        for payload in payloads {
            let result = simulate(payload, on: routing)
            XCTAssertEqual(result.presentation, .inApp(bolt), payload)
            XCTAssertEqual(result.events, [.willPresent], payload)
            XCTAssertEqual(result.warnings, [], payload)
        }
    }

    func testOptionalKeysDefaultToNormalAndWarning() {
        let result = simulate(
            ##"{"aps": {"alert": {"title": "T", "body": "B"}}, "inAppSymbol": "umbrella.fill", "inAppColor": "#3774E6"}"##,
            on: routing)
        XCTAssertEqual(result.presentation.style, InAppStyle(symbol: "umbrella.fill", color: "#3774E6"))
        XCTAssertEqual(result.presentation.style?.size, .normal)
        XCTAssertEqual(result.presentation.style?.haptics, .warning)
    }

    func testUnknownSizeAndHapticsFallBackWithAWarning() {
        let result = simulate(
            ##"{"aps": {"alert": {"title": "T", "body": "B"}}, "inAppSymbol": "s", "inAppColor": "#000000", "inAppSize": "huge", "inAppHaptics": 3}"##,
            on: routing)
        XCTAssertEqual(result.presentation.style, InAppStyle(symbol: "s", color: "#000000", size: .normal, haptics: .warning))
        XCTAssertEqual(
            result.warnings,
            [
                "inAppSize \"huge\" is not normal or compact: the app uses normal",
                "inAppHaptics (integer) is not success, warning or error: the app uses warning",
            ])
    }

    func testAnythingMissingIsShownAsUsual() {
        let cases: [(String, String)] = [
            (##"{"aps": {"alert": {"body": "B"}}, "inAppSymbol": "s", "inAppColor": "#000000"}"##, "alert title"),
            (##"{"aps": {"alert": "B"}, "inAppSymbol": "s", "inAppColor": "#000000"}"##, "alert title"),
            (##"{"aps": {"alert": {"title": "T"}}, "inAppSymbol": "s", "inAppColor": "#000000"}"##, "alert body"),
            (##"{"aps": {"alert": {"title": "T", "body": "B"}}, "inAppSymbol": "s"}"##, "inAppColor"),
            (##"{"aps": {"alert": {"title": "T", "body": "B"}}, "inAppColor": "#000000"}"##, "inAppSymbol"),
            (##"{"aps": {"alert": {"title": "T", "body": "B"}}, "inAppSymbol": 7, "inAppColor": "#000000"}"##, "inAppSymbol"),
        ]
        for (payload, missing) in cases {
            let result = simulate(payload, on: routing)
            XCTAssertEqual(result.presentation.kind, .banner, payload)
            XCTAssertEqual(result.events, [.willPresent], payload)
            XCTAssertTrue(
                result.warnings.contains { $0.hasPrefix("in-app routing skipped (missing \(missing)") },
                "\(payload): \(result.warnings)")
        }
    }

    func testOneSignalPushesReadOnlyTheirAdditionalData() {
        let result = simulate(
            ##"{"aps": {"alert": {"title": "T", "body": "B"}}, "custom": {"i": "x", "a": {}}, "inAppSymbol": "s", "inAppColor": "#000000"}"##,
            on: routing)
        XCTAssertEqual(result.presentation.kind, .banner)
        XCTAssertEqual(result.warnings, [])
    }

    func testRoutingOnlyInTheForegroundAndOnlyWhenOn() {
        let payload =
            ##"{"aps": {"alert": {"title": "T", "body": "B"}}, "inAppSymbol": "s", "inAppColor": "#000000"}"##
        XCTAssertEqual(simulate(payload, on: DeviceProfile()).presentation.kind, .banner)
        for state in [AppState.background, .notRunning, .forceQuit] {
            let result = simulate(payload, on: DeviceProfile(state: state, inAppRouting: true))
            XCTAssertEqual(result.presentation.kind, .banner, "\(state)")
        }
        let denied = simulate(payload, on: DeviceProfile(authorization: .denied, inAppRouting: true))
        XCTAssertEqual(denied.presentation, .nothing)
    }

    func testInAppReplacesSoundAndBadge() {
        let result = simulate(
            ##"{"aps": {"alert": {"title": "T", "body": "B"}, "sound": "default", "badge": 2}, "inAppSymbol": "s", "inAppColor": "#000000"}"##,
            on: routing)
        XCTAssertEqual(result.presentation.sound, false)
        XCTAssertNil(result.presentation.badge)
    }
}

final class CustomDataTests: XCTestCase {
    func testLayouts() {
        let cases: [(String, CustomData.Layout, [String])] = [
            (##"{"aps": {}, "a": 1, "b": 2}"##, .topLevel, ["a", "b"]),
            (##"{"aps": {}, "custom": {"i": "x", "a": {"foo": "bar"}, "u": "https://e.x"}}"##, .oneSignal, ["foo"]),
            (##"{"aps": {}, "custom": {"i": "x"}}"##, .oneSignal, []),
            (##"{"aps": {}, "custom": {"kind": "mine"}}"##, .topLevel, ["custom"]),
            (##"{"aps": {}, "os_data": {"i": "x"}, "foo": "bar", "n": 1}"##, .oneSignalOSData, ["foo", "n"]),
        ]
        for (payload, layout, keys) in cases {
            let data = CustomData(payload: json(payload))
            XCTAssertEqual(data.layout, layout, payload)
            XCTAssertEqual(data.members.map(\.key), keys, payload)
        }
    }

    func testPathsFollowTheLayout() {
        XCTAssertEqual(CustomData(payload: json(##"{"custom": {"a": {}}}"##)).path(of: "k"), "custom.a.k")
        XCTAssertEqual(CustomData(payload: json(##"{"os_data": {}}"##)).path(of: "k"), "k")
    }
}
