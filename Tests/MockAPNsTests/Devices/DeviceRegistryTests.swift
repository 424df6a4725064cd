import APNsModel
import Foundation
import XCTest
@testable import MockAPNs

final class DeviceRegistryTests: XCTestCase {
    func testUnknownTokensAreLive() {
        XCTAssertNil(DeviceRegistry().verdict(token: "aa", topic: "t", now: 0))
    }

    func testEachStateAnswersLikeAPNs() {
        let registry = DeviceRegistry()
        registry.set("AA", .unregistered(timestamp: 1234))
        registry.set("bb", .expired)
        registry.set("cc", .topics(["com.example.app"]))
        registry.set("dd", .otherEnvironment)
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

    func testRateLimitSlidesWithTheWindow() {
        let registry = DeviceRegistry()
        registry.set("ee", .rateLimited(max: 2, windowSeconds: 10))
        XCTAssertNil(registry.verdict(token: "ee", topic: "t", now: 1_000))
        XCTAssertNil(registry.verdict(token: "ee", topic: "t", now: 2_000))
        XCTAssertEqual(registry.verdict(token: "ee", topic: "t", now: 3_000)?.reason, .tooManyRequests)
        XCTAssertNil(registry.verdict(token: "ee", topic: "t", now: 11_500))   // the first push left the window
    }

    func testLoadsADevicesFileAndRejectsBadOnes() throws {
        let path = NSTemporaryDirectory() + "devices-\(UUID().uuidString).json"
        defer { try? FileManager.default.removeItem(atPath: path) }
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
}
