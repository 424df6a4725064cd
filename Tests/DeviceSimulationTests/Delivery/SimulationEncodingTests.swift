import XCTest

@testable import APNsModel
@testable import DeviceSimulation

/// The JSON shape `simulate --json` prints.
final class SimulationEncodingTests: XCTestCase {
    func encode<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    func testBannerEncodesBadgeNullAndNoStyleOrUnknown() throws {
        let simulation = Simulation(
            presentation: Presentation(kind: .banner, sound: true), events: [.willPresent], warnings: ["w"])
        XCTAssertEqual(
            try encode(simulation),
            #"{"events":[{"handler":"userNotificationCenter(_:willPresent:withCompletionHandler:)","process":"app"}],"presentation":{"badge":null,"kind":"banner","sound":true},"warnings":["w"]}"#
        )
    }

    func testInAppEncodesStyleAndUnknownWhenSet() throws {
        let simulation = Simulation(
            presentation: .inApp(InAppStyle(symbol: "bolt.fill", color: "#ae0000", size: .compact, haptics: .error)),
            events: [.serviceExtension], unknown: "why")
        XCTAssertEqual(
            try encode(simulation),
            ##"{"events":[{"handler":"UNNotificationServiceExtension.didReceive(_:withContentHandler:)","process":"extension"}],"presentation":{"badge":null,"kind":"inApp","sound":false,"style":{"color":"#ae0000","haptics":"error","size":"compact","symbol":"bolt.fill"}},"unknown":"why","warnings":[]}"##
        )
    }

    func testRoundTrips() throws {
        let simulation = Simulation(presentation: Presentation(kind: .list, badge: 4), events: [.voip, .launch])
        let data = try JSONEncoder().encode(simulation)
        XCTAssertEqual(try JSONDecoder().decode(Simulation.self, from: data), simulation)
    }

    func testDeviceProfileDecodesWithDefaults() throws {
        let profile = try JSONDecoder().decode(
            DeviceProfile.self, from: Data(#"{"state": "forceQuit", "foregroundPresentation": "noDelegate"}"#.utf8))
        XCTAssertEqual(profile, DeviceProfile(state: .forceQuit, foregroundPresentation: .noDelegate))
        let options = try JSONDecoder().decode(
            DeviceProfile.self, from: Data(#"{"foregroundPresentation": ["list"], "entitlements": ["timeSensitive"]}"#.utf8))
        XCTAssertEqual(options, DeviceProfile(foregroundPresentation: .options([.list]), entitlements: [.timeSensitive]))
        let roundTrip = try JSONDecoder().decode(DeviceProfile.self, from: try JSONEncoder().encode(options))
        XCTAssertEqual(roundTrip, options)
    }
}

final class SimulationInputRequestTests: XCTestCase {
    func testReadsHeadersAndBody() throws {
        let request = APNsRequest(
            method: "POST", path: "/3/device/00",
            headers: [
                HeaderField("apns-push-type", "background"), HeaderField("apns-priority", "5"),
                HeaderField("apns-topic", "com.example.app"), HeaderField("apns-collapse-id", "c"),
            ],
            body: Array(#"{"aps":{"content-available":1}}"#.utf8))
        let input = try SimulationInput(request: request)
        XCTAssertEqual(
            input,
            SimulationInput(
                pushType: .background, priority: .considerPower, topic: "com.example.app", collapseID: "c",
                payload: .object([.init("aps", .object([.init("content-available", .integer(1))]))])))
        XCTAssertThrowsError(try SimulationInput(request: APNsRequest(method: "POST", path: "/", body: Array("{".utf8))))
    }
}
