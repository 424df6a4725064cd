import XCTest

@testable import APNsModel
@testable import DeviceSimulation

/// device-rules §16: each timeline entry in the Push Notifications Console's words, from the one mapping
/// (``ConsoleState/of(rule:outcome:fromStorage:notificationsDenied:)``) the entry's `consoleState` applies.
final class DeviceConsoleStateTests: XCTestCase {
    /// Entries as `"<apns-id> <Console state or ->"`.
    private func states(_ entries: [DeviceTimelineEntry]) -> [String] {
        entries.map { "\($0.apnsID ?? "-") \($0.consoleState ?? "-")" }
    }

    func testAPushStoredWhileOfflineIsDeliveredFromStorage() {
        let t = DeviceTimeline(settings: Dev.settings(), events: [
            .change(.offline, at: Dev.t0), .push(Dev.alert(id: "a", body: "x"), at: Dev.at(1)),
            .change(.online, at: Dev.at(2)),
        ])
        XCTAssertEqual(states(t.entries(until: Dev.at(2))), ["a Stored - Device Offline", "a Delivered to Device (From Storage)"])
    }

    func testOnlineDeliveriesAreDeliveredToDeviceAtAnyPriority() {
        let t = DeviceTimeline(settings: Dev.settings(), events: [
            .push(Dev.alert(id: "now", body: "x"), at: Dev.t0),
            .push(Dev.alert(id: "later", body: "y", priority: .considerPower), at: Dev.at(1)),
        ])
        let entries = t.entries(until: Dev.at(1))
        XCTAssertEqual(entries.map(\.rule), [.deliveredOnline, .lowPriorityInOrder])
        XCTAssertEqual(states(entries), ["now Delivered to Device", "later Delivered to Device"])
    }

    func testWhatAPNsDropsForTimeIsDiscardedExpiredAndAReplacedStoredPushHasNoState() {
        let expiresIn10s = Dev.t0 / 1000 + 10
        let t = DeviceTimeline(settings: Dev.settings(), events: [
            .change(.offline, at: Dev.t0),
            .push(Dev.alert(id: "once", body: "x", expiration: 0), at: Dev.at(1)),
            .push(Dev.alert(id: "old", body: "y", topic: "com.example.other"), at: Dev.at(2)),
            .push(Dev.alert(id: "new", body: "z", topic: "com.example.other", expiration: expiresIn10s), at: Dev.at(3)),
        ])
        XCTAssertEqual(states(t.entries(until: Dev.at(20))), [
            "once Discarded - Expired", "old Stored - Device Offline", "old -", "new Stored - Device Offline",
            "new Discarded - Expired",
        ])
    }

    func testASilentPushOverTheBudgetIsStoredForPowerConsiderations() {
        var settings = Dev.settings()
        settings.backgroundBudgetPerHour = 1
        let t = DeviceTimeline(settings: settings, events: [
            .push(Dev.silent(id: "s1"), at: Dev.t0), .push(Dev.silent(id: "s2"), at: Dev.at(1)),
        ])
        let entries = t.entries(until: Dev.at(1))
        XCTAssertEqual(entries.map(\.outcome), [.delivered, .throttled])
        XCTAssertEqual(states(entries), ["s1 Delivered to Device", "s2 Stored - Power Considerations"])
    }

    func testALiveActivityTokenNoActivityHasIsAnUnregisteredToken() {
        let update = Dev.liveActivity(id: "u", aps: #""event": "update", "timestamp": \#(Dev.t0 / 1000), "content-state": {}"#)
        let online = DeviceTimeline(settings: Dev.settings(), events: [.push(update, at: Dev.t0)])
        XCTAssertEqual(states(online.entries(until: Dev.t0)), ["u Discarded - Token Unregistered"])
        let forwarded = DeviceTimeline(settings: Dev.settings(), events: [
            .change(.offline, at: Dev.t0), .push(update, at: Dev.at(1)), .change(.online, at: Dev.at(2)),
        ])
        XCTAssertEqual(states(forwarded.entries(until: Dev.at(2))),
                       ["u Stored - Device Offline", "u Discarded - Token Unregistered (From Storage)"])
    }

    func testDeniedNotificationsDiscardWhatWouldShowButNotASilentPush() {
        var settings = Dev.settings()
        settings.profile.authorization = .denied
        let t = DeviceTimeline(settings: settings, events: [
            .push(Dev.alert(id: "alert", body: "x"), at: Dev.t0), .push(Dev.silent(id: "silent"), at: Dev.at(1)),
            .change(.offline, at: Dev.at(2)), .push(Dev.alert(id: "stored", body: "y"), at: Dev.at(3)),
            .change(.online, at: Dev.at(4)),
        ])
        XCTAssertEqual(states(t.entries(until: Dev.at(4))), [
            "alert Discarded - Disabled", "silent Delivered to Device", "stored Stored - Device Offline",
            "stored Discarded - Disabled (From Storage)",
        ])
    }

    func testWhatHappensOnTheDeviceAfterDeliveryHasNoState() {
        let t = DeviceTimeline(settings: Dev.settings(), events: [
            .push(Dev.alert(id: "a", body: "1-0", collapseID: "score"), at: Dev.t0),
            .push(Dev.alert(id: "b", body: "2-0", collapseID: "score"), at: Dev.at(1)),
            .change(.tap(apnsID: "b", action: nil), at: Dev.at(2)),
        ])
        let entries = t.entries(until: Dev.at(2))
        XCTAssertEqual(entries.map(\.rule), [.deliveredOnline, .deliveredOnline, .collapseIDReplacement, .tap])
        XCTAssertEqual(entries.map(\.consoleState), ["Delivered to Device", "Delivered to Device", nil, nil])
    }

    func testTheMappingTakesTheFromStorageFormOnlyForDeliveriesAndDiscards() {
        XCTAssertEqual(ConsoleState.of(rule: .deliveredOnline, outcome: .delivered, fromStorage: true, notificationsDenied: false),
                       .deliveredToDeviceFromStorage)
        XCTAssertEqual(ConsoleState.of(rule: .backgroundBudget, outcome: .throttled, fromStorage: true, notificationsDenied: false),
                       .storedPowerConsiderations)
        XCTAssertEqual(ConsoleState.of(rule: .liveActivityEnded, outcome: .dropped, fromStorage: true, notificationsDenied: true),
                       .deliveredToDeviceFromStorage, "ActivityKit ignored it after APNs delivered it; nothing was shown")
        XCTAssertEqual(ConsoleState.of(rule: .expiredWhileStored, outcome: .dropped, fromStorage: false, notificationsDenied: false),
                       .discardedExpired)
        XCTAssertEqual(ConsoleState.receivedByAPNs.rawValue, "Received by APNs")
    }
}
