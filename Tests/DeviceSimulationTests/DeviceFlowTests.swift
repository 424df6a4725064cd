import Foundation
import ModelTestSupport
import XCTest

@testable import APNsModel
@testable import DeviceSimulation

/// The seeds' flows over time (Fixtures/seeds): in-app routing in the foreground then the same push in the
/// background (seed 000), a silent fetch in the background (seed 004), tap routing (seed 004).
final class DeviceFlowTests: XCTestCase {
    /// A seed's payload as a push APNs accepted.
    private func seed(_ name: String, id: String, type: PushType = .alert, priority: Priority = .immediate) throws -> AcceptedPush {
        let url = URL(fileURLWithPath: RepoPaths.fixtures).appendingPathComponent("seeds/\(name).payload.json")
        return AcceptedPush(
            route: .device(token: Dev.token), deviceToken: Dev.token, topic: Dev.topic, pushType: type, priority: priority,
            apnsID: id, payload: try JSONValue.parse(Data(contentsOf: url)))
    }

    func testInAppRoutingInTheForegroundThenTheSamePushInTheBackground() throws {
        var settings = Dev.settings(.foreground)
        settings.profile.inAppRouting = true
        let t = DeviceTimeline(settings: settings, events: [
            .push(try seed("000-swiftylaunch-bolt", id: "fg"), at: Dev.at(0)),
            .change(.appState(.background), at: Dev.at(10)),
            .push(try seed("000-swiftylaunch-bolt", id: "bg"), at: Dev.at(20)),
        ])
        let inApp = t.entries(until: Dev.at(0))[0].simulation
        XCTAssertEqual(inApp?.presentation, .inApp(InAppStyle(symbol: "bolt.fill", color: "#ae0000", size: .compact, haptics: .error)))
        XCTAssertEqual(inApp?.events, [.willPresent])
        XCTAssertEqual(t.screen(at: Dev.at(10)).notifications, [], "the system showed nothing: the app drew its own")
        XCTAssertEqual(t.screen(at: Dev.at(10)).sounds, [])

        let screen = t.screen(at: Dev.at(20))
        XCTAssertEqual(screen.appState, .background)
        XCTAssertEqual(screen.notifications.map(\.apnsID), ["bg"])
        XCTAssertEqual(t.entries(until: Dev.at(20))[1].simulation?.presentation.kind, .banner)
        XCTAssertEqual(t.entries(until: Dev.at(20))[1].simulation?.events, [], "no app code runs until a tap")
    }

    func testASilentFetchInTheBackgroundRunsTheCallbackAndUsesTheBudget() throws {
        let t = DeviceTimeline(settings: Dev.settings(), events: [
            .push(try seed("004-tutorial-silent", id: "fetch", type: .background, priority: .considerPower), at: Dev.t0),
        ])
        let entry = t.entries(until: Dev.t0)[0]
        XCTAssertEqual(entry.outcome, .delivered)
        XCTAssertEqual(entry.rule, .backgroundBudget)
        XCTAssertEqual(entry.simulation?.events, [.didReceiveRemoteNotification])
        XCTAssertEqual(entry.simulation?.warnings, [])
        let screen = t.screen(at: Dev.t0)
        XCTAssertEqual(screen.notifications, [])
        XCTAssertEqual(screen.backgroundBudget.used, 1)
    }

    func testTappingRoutesToDidReceiveRemovesTheNotificationAndOpensTheApp() throws {
        let t = DeviceTimeline(settings: Dev.settings(.notRunning), events: [
            .push(try seed("004-tutorial-tap", id: "tap-me"), at: Dev.at(0)),
            .push(try seed("003-skill-standard", id: "keep"), at: Dev.at(1)),
            .change(.tap(apnsID: "tap-me", action: nil), at: Dev.at(5)),
        ])
        XCTAssertEqual(t.screen(at: Dev.at(4)).notifications.map(\.apnsID), ["keep", "tap-me"])
        let tap = t.entries(until: Dev.at(5)).last
        XCTAssertEqual(tap?.outcome, .tapped)
        XCTAssertEqual(tap?.rule, .tap)
        XCTAssertEqual(tap?.tap?.events, [.launch, .didReceiveResponse])
        XCTAssertEqual(tap?.tap?.actionIdentifier, TapSimulation.defaultActionIdentifier)
        let screen = t.screen(at: Dev.at(5))
        XCTAssertEqual(screen.notifications.map(\.apnsID), ["keep"])
        XCTAssertEqual(screen.appState, .foreground)
    }

    func testAnActionButtonNeedsACategoryAndLeavesTheAppStateAlone() throws {
        let t = DeviceTimeline(settings: Dev.settings(), events: [
            .push(try seed("003-skill-standard", id: "msg"), at: Dev.at(0)),
            .push(try seed("004-tutorial-tap", id: "plain"), at: Dev.at(1)),
            .change(.tap(apnsID: "plain", action: "REPLY"), at: Dev.at(2)),
            .change(.tap(apnsID: "msg", action: "REPLY"), at: Dev.at(3)),
        ])
        let entries = t.entries(until: Dev.at(3))
        XCTAssertEqual(entries[2].tap?.events, [], "no category, no buttons")
        XCTAssertEqual(entries[3].tap?.events, [.didReceiveResponse])
        XCTAssertEqual(entries[3].tap?.actionIdentifier, "REPLY")
        let screen = t.screen(at: Dev.at(3))
        XCTAssertEqual(screen.notifications.map(\.apnsID), ["plain"])
        XCTAssertEqual(screen.appState, .background)
    }

    func testTappingANotificationThatIsNotThereRunsNothing() throws {
        let t = DeviceTimeline(settings: Dev.settings(), events: [
            .push(try seed("004-tutorial-tap", id: "a"), at: Dev.at(0)),
            .change(.tap(apnsID: "a", action: nil), at: Dev.at(1)),
            .change(.tap(apnsID: "a", action: nil), at: Dev.at(2)),
            .change(.tap(apnsID: "never-sent", action: nil), at: Dev.at(3)),
        ])
        let entries = t.entries(until: Dev.at(3))
        XCTAssertEqual(entries.map(\.outcome), [.delivered, .tapped, .tapped, .tapped])
        XCTAssertEqual(entries[2].tap?.events, [])
        XCTAssertEqual(entries[3].tap?.warnings.count, 1)
        XCTAssertEqual(entries[3].apnsID, "never-sent")
    }
}
