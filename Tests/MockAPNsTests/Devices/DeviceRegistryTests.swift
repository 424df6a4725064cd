import APNsModel
import Foundation
import MockTestSupport
import XCTest
@testable import MockAPNs
@testable import MockAPNsRecording

final class DeviceRegistryTests: LeakCheckedTestCase {
    func testUnknownTokensAreLive() {
        XCTAssertNil(DeviceRegistry().verdict(token: "aa", topic: "t", now: 0))
    }

    func testEachStateAnswersLikeAPNs() throws {
        let registry = DeviceRegistry()
        try registry.set("AA", .unregistered(timestamp: 1234))
        try registry.set("bb", .expired)
        try registry.set("cc", .topics(["com.example.app"]))
        try registry.set("dd", .otherEnvironment)
        XCTAssertEqual(registry.verdict(token: "aa", topic: "t", now: 0)?.reason, .unregistered)
        XCTAssertEqual(registry.verdict(token: "aa", topic: "t", now: 0)?.timestamp, 1234)
        XCTAssertEqual(registry.verdict(token: "bb", topic: "t", now: 0)?.reason, .expiredToken)
        XCTAssertNotNil(registry.verdict(token: "bb", topic: "t", now: 0)?.timestamp)
        XCTAssertNil(registry.verdict(token: "cc", topic: "com.example.app", now: 0))
        XCTAssertEqual(registry.verdict(token: "cc", topic: "com.other", now: 0)?.reason, .deviceTokenNotForTopic)
        XCTAssertEqual(registry.verdict(token: "dd", topic: "t", now: 0)?.reason, .badDeviceToken)
        registry.remove("aa")
        XCTAssertNil(registry.verdict(token: "aa", topic: "t", now: 0))
    }

    func testRateLimitSlidesWithTheWindow() throws {
        let registry = DeviceRegistry()
        try registry.set("ee", .rateLimited(max: 2, windowSeconds: 10))
        XCTAssertNil(registry.verdict(token: "ee", topic: "t", now: 1_000))
        XCTAssertNil(registry.verdict(token: "ee", topic: "t", now: 2_000))
        XCTAssertEqual(registry.verdict(token: "ee", topic: "t", now: 3_000)?.reason, .tooManyRequests)
        XCTAssertNil(registry.verdict(token: "ee", topic: "t", now: 11_500))   // the first push left the window
    }

    func testLoadsADevicesFileAndRejectsBadOnes() throws {
        let path = try makeTestDirectory("devices", file: "devices.json")
        try Data(#"{"devices":[{"token":"abcd","state":"expired"},{"token":"ef01","state":"rateLimited","max":1,"window_seconds":60}]}"#.utf8)
            .write(to: URL(fileURLWithPath: path))
        let registry = DeviceRegistry()
        try registry.load(contentsOf: path)
        XCTAssertEqual(registry.all()["abcd"], .expired)
        XCTAssertEqual(registry.all()["ef01"], .rateLimited(max: 1, windowSeconds: 60))

        try Data(#"[{"token":"xyz","state":"expired"}]"#.utf8).write(to: URL(fileURLWithPath: path))
        XCTAssertThrowsError(try DeviceRegistry().load(contentsOf: path)) { error in
            XCTAssertTrue("\(error)".contains("even-length hex"), "\(error)")
        }
        for state in [DeviceState.unregistered(timestamp: nil), .expired, .topics(["a"]), .otherEnvironment, .rateLimited(max: 3, windowSeconds: 5)] {
            XCTAssertEqual(try DeviceState(json: state.jsonValue()), state)
        }
    }

    func testTheRegistryStopsAtItsDeviceLimitAndDeletingFreesRoom() throws {
        let registry = DeviceRegistry(limits: DeviceRegistryLimits(devices: 3, topics: 100, ratePushes: 100))
        for token in ["aa", "bb", "cc"] { try registry.set(token, .expired) }
        XCTAssertThrowsError(try registry.set("dd", .expired)) { error in
            XCTAssertEqual(error as? DeviceRegistryError, .full(limit: 3))
            XCTAssertTrue("\(error)".contains("DELETE /api/v1/devices"), "\(error)")
        }
        XCTAssertNil(registry.all()["dd"])
        try registry.set("AA", .otherEnvironment)   // replacing a known token needs no room
        XCTAssertEqual(registry.all()["aa"], .otherEnvironment)
        registry.remove("bb")
        try registry.set("dd", .expired)
        XCTAssertEqual(registry.all().count, 3)
        registry.removeAll()
        for token in ["01", "02", "03"] { try registry.set(token, .expired) }
        XCTAssertEqual(DeviceRegistry.limitDevices, 100_000)
    }

    func testStatesOutsideTheBoundsAreRefused() throws {
        let registry = DeviceRegistry()
        let tooMany = (0...DeviceState.maximumTopics).map { "com.example.app\($0)" }
        let refused: [(String, DeviceState)] = [
            ("aa", .topics(tooMany)),
            ("aa", .topics([String(repeating: "a", count: DeviceState.maximumTopicBytes + 1)])),
            ("aa", .rateLimited(max: Int.max, windowSeconds: 60)),
            ("aa", .rateLimited(max: 5, windowSeconds: Int.max)),   // once trapped in `now - window * 1000`
            ("aa", .rateLimited(max: 5, windowSeconds: 0)),
            ("aa", .rateLimited(max: -1, windowSeconds: 60)),
            ("aa", .unregistered(timestamp: Int64.min)),
            (String(repeating: "ab", count: DeviceRegistry.maximumTokenLength / 2 + 1), .expired),
        ]
        for (token, state) in refused {
            XCTAssertThrowsError(try registry.set(token, state), "\(state)") { error in
                guard case .outOfBounds = error as? DeviceRegistryError else { return XCTFail("\(error)") }
            }
        }
        XCTAssertTrue(registry.all().isEmpty)
        try registry.set("aa", .topics(Array(tooMany.dropLast())))
        try registry.set("bb", .rateLimited(max: DeviceState.maximumRatePushes, windowSeconds: DeviceState.maximumRateWindowSeconds))
        XCTAssertNil(registry.verdict(token: "bb", topic: "t", now: Int64.min))
        XCTAssertNil(registry.verdict(token: "bb", topic: "t", now: Int64.max))
    }

    func testADevicesFilePastTheBoundsIsAConfigurationError() throws {
        let path = try makeTestDirectory("devices", file: "devices.json")
        try Data(#"[{"token":"aa","state":"rateLimited","max":1,"window_seconds":9223372036854775807}]"#.utf8)
            .write(to: URL(fileURLWithPath: path))
        XCTAssertThrowsError(try DeviceRegistry().load(contentsOf: path)) { error in
            XCTAssertTrue("\(error)".contains("window_seconds"), "\(error)")
        }
        let list = (0..<4).map { #"{"token":"0\#($0)","state":"expired"}"# }.joined(separator: ",")
        try Data("[\(list)]".utf8).write(to: URL(fileURLWithPath: path))
        XCTAssertThrowsError(try DeviceRegistry(limits: DeviceRegistryLimits(devices: 3, topics: 100, ratePushes: 100)).load(contentsOf: path)) { error in
            XCTAssertTrue("\(error)".contains("at most 3 devices"), "\(error)")
        }
    }

    func testTopicAndRateLimitBudgetsAreSharedByAllDevicesAndGivenBackOnDelete() throws {
        let registry = DeviceRegistry(limits: DeviceRegistryLimits(devices: 10, topics: 5, ratePushes: 10))
        try registry.set("aa", .topics(["a", "b", "c"]))
        XCTAssertThrowsError(try registry.set("bb", .topics(["d", "e", "f"]))) { error in
            XCTAssertEqual(error as? DeviceRegistryError, .topicsFull(limit: 5))
        }
        try registry.set("bb", .topics(["d", "e"]))
        try registry.set("aa", .topics(["a"]))   // replacing counts only the difference
        try registry.set("cc", .topics(["x", "y"]))
        registry.remove("bb")
        try registry.set("dd", .topics(["p", "q"]))
        XCTAssertEqual(registry.all().count, 3)

        try registry.set("ee", .rateLimited(max: 8, windowSeconds: 60))
        XCTAssertThrowsError(try registry.set("ff", .rateLimited(max: 3, windowSeconds: 60))) { error in
            XCTAssertEqual(error as? DeviceRegistryError, .ratePushesFull(limit: 10))
        }
        try registry.set("ee", .expired)   // a smaller state gives the pushes back
        try registry.set("ff", .rateLimited(max: 10, windowSeconds: 60))
        registry.removeAll()
        try registry.set("aa", .topics(["1", "2", "3", "4", "5"]))
        try registry.set("bb", .rateLimited(max: 10, windowSeconds: 1))
        XCTAssertEqual(DeviceRegistryLimits.standard, DeviceRegistryLimits(devices: 100_000, topics: 200_000, ratePushes: 1_000_000))
    }
}
