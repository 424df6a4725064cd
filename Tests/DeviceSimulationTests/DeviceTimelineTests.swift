import ModelTestSupport
import XCTest

@testable import APNsModel
@testable import DeviceSimulation

/// The timeline's API: event order, instants, what the screen starts as. Also the helpers the `Device*Tests` share.
final class DeviceTimelineTests: XCTestCase {
    func testAnEmptyDeviceIsOnlineWithNothingOnScreenAndTheModelNumbersNamed() {
        let screen = DeviceTimeline(settings: DeviceSettings(token: Dev.token), events: []).screen(at: Dev.t0)
        XCTAssertEqual(screen.token, Dev.token)
        XCTAssertTrue(screen.online)
        XCTAssertEqual(screen.appState, .foreground)
        XCTAssertEqual(screen.badge, 0)
        XCTAssertEqual(screen.notifications, [])
        XCTAssertEqual(screen.backgroundBudget, DeviceBackgroundBudget(limit: 3, windowMillis: 3_600_000, used: 0, nextFreeAt: nil))
        XCTAssertEqual(screen.json["model"], json(#"{"background_budget_per_hour": 3, "live_activity_dismissal_ms": 14400000, "storage_limit_ms": 2592000000}"#))
        XCTAssertEqual(screen.json["background_budget"]?["source"], .string("model"))
    }

    func testEventsGivenOutOfOrderAreReplayedInTimeOrderAndTiesKeepTheirOrder() {
        let first = Dev.alert(id: "first", body: "one")
        let second = Dev.alert(id: "second", body: "two")
        let timeline = DeviceTimeline(events: [
            .push(second, at: Dev.at(10)), .change(.offline, at: Dev.at(5)), .push(first, at: Dev.at(5)),
            .change(.online, at: Dev.at(10)),
        ])
        XCTAssertEqual(timeline.events.map(\.time), [Dev.at(5), Dev.at(5), Dev.at(10), Dev.at(10)])
        // Offline first at 5 s, so `first` is stored; at 10 s `second` arrives while still offline (replacing it),
        // then the device comes online.
        XCTAssertEqual(Dev.summary(timeline.entries(until: Dev.at(10))), [
            "first stored 11-store-and-forward", "first replaced 11-one-stored-per-app",
            "second stored 11-store-and-forward", "second delivered 11-delivered-on-reconnect",
        ])
    }

    func testTheScreenAtAnInstantIncludesEventsAtThatInstantAndNoneAfter() {
        let timeline = DeviceTimeline(events: [
            .push(Dev.alert(id: "a", body: "A"), at: Dev.at(1)), .push(Dev.alert(id: "b", body: "B"), at: Dev.at(2)),
        ])
        XCTAssertEqual(timeline.screen(at: Dev.at(0)).notifications.map(\.apnsID), [])
        XCTAssertEqual(timeline.screen(at: Dev.at(1)).notifications.map(\.apnsID), ["a"])
        XCTAssertEqual(timeline.screen(at: Dev.at(2) - 1).notifications.map(\.apnsID), ["a"])
        XCTAssertEqual(timeline.screen(at: Dev.at(2)).notifications.map(\.apnsID), ["b", "a"])
        XCTAssertEqual(timeline.entries(until: Dev.at(1)).map(\.apnsID), ["a"])
        XCTAssertEqual(timeline.replay(until: Dev.at(2)).entries.count, 2)
    }

    func testEveryDeliveryCarriesThePerPushSimulation() {
        let push = Dev.alert(id: "a", body: "Hello")
        let entry = DeviceTimeline(events: [.push(push, at: Dev.t0)]).entries(until: Dev.t0)[0]
        XCTAssertEqual(entry.outcome, .delivered)
        XCTAssertEqual(entry.simulation, DeliverySimulator.simulate(SimulationInput(push: push), on: DeviceProfile()))
        XCTAssertEqual(entry.json["simulation"]?["presentation"]?["kind"], .string("banner"))
    }

    func testAnInferredPushTypeIsSimulatedAsAbsentLikeARecordedRequest() {
        var push = Dev.push(#"{"aps": {"content-available": 1}}"#, id: "s", type: .background, priority: .considerPower)
        push.pushTypeInferred = true
        XCTAssertNil(SimulationInput(push: push).pushType)
        let simulation = DeviceTimeline(events: [.push(push, at: Dev.t0)]).entries(until: Dev.t0)[0].simulation
        XCTAssertEqual(simulation?.warnings, ["silent push without apns-push-type: send background, or iOS may delay or drop it"])
    }
}

/// What the `Device*Tests` share: a fixed start, a device token, and pushes as `APNsModel` accepts them.
enum Dev {
    /// 2027-01-15T08:00:00Z in milliseconds (`TestCredentials.now` in seconds).
    static let t0: Int64 = 1_800_000_000_000
    static let token = "5e7a2b1c9d4f0e3a6b8c7d2e1f0a9b8c7d6e5f4a3b2c1d0e9f8a7b6c5d4e3f2a"
    static let activityToken = String(repeating: "a1", count: 32)
    static let topic = "com.example.app"

    /// `t0` plus `seconds`.
    static func at(_ seconds: Int64) -> Int64 { t0 + seconds * 1000 }

    /// A push APNs accepted.
    static func push(
        _ payload: String, id: String?, type: PushType = .alert, priority: Priority = .immediate,
        topic: String = Dev.topic, token: String = Dev.token, collapseID: String? = nil, expiration: Int64? = nil
    ) -> AcceptedPush {
        AcceptedPush(
            route: .device(token: token), deviceToken: token, topic: topic, pushType: type, priority: priority,
            apnsID: id, expiration: expiration, collapseID: collapseID, payload: json(payload))
    }

    /// An alert with a body and whatever other `aps` members `aps` adds (JSON members, e.g. `"badge": 2`).
    static func alert(
        id: String, body: String, aps: String = "", priority: Priority = .immediate, topic: String = Dev.topic,
        collapseID: String? = nil, expiration: Int64? = nil
    ) -> AcceptedPush {
        let extra = aps.isEmpty ? "" : ", \(aps)"
        return push(#"{"aps": {"alert": {"title": "T", "body": "\#(body)"}\#(extra)}}"#, id: id, priority: priority,
                    topic: topic, collapseID: collapseID, expiration: expiration)
    }

    /// A silent push (`background`, priority 5).
    static func silent(id: String) -> AcceptedPush {
        push(#"{"aps": {"content-available": 1}}"#, id: id, type: .background, priority: .considerPower)
    }

    /// A Live Activity push to `token` with the given `aps` members.
    static func liveActivity(id: String, token: String = Dev.activityToken, aps: String) -> AcceptedPush {
        push(#"{"aps": {\#(aps)}}"#, id: id, type: .liveactivity, topic: topic + ".push-type.liveactivity", token: token)
    }

    /// Settings for an app in `state`.
    static func settings(_ state: AppState = .background) -> DeviceSettings {
        DeviceSettings(token: token, profile: DeviceProfile(state: state))
    }

    /// Entries as `"<apns-id> <outcome> <rule>"`, for compact assertions.
    static func summary(_ entries: [DeviceTimelineEntry]) -> [String] {
        entries.map { "\($0.apnsID ?? "-") \($0.outcome.rawValue) \($0.rule.rawValue)" }
    }
}
