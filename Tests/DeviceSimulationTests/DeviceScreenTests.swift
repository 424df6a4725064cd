import XCTest

@testable import APNsModel
@testable import DeviceSimulation

/// device-rules §14: replacement, order, grouping, badge and sounds on the screen.
final class DeviceScreenTests: XCTestCase {
    private func screen(_ pushes: [AcceptedPush], settings: DeviceSettings = Dev.settings()) -> (DeviceScreen, [DeviceTimelineEntry]) {
        let events = pushes.enumerated().map { DeviceEvent.push($0.element, at: Dev.at(Int64($0.offset))) }
        let result = DeviceTimeline(settings: settings, events: events).replay(until: Dev.at(Int64(pushes.count)))
        return (result.screen, result.entries)
    }

    func testALaterPushWithTheSameCollapseIDReplacesTheEarlierOne() {
        let (screen, entries) = screen([
            Dev.alert(id: "a", body: "1-0", collapseID: "score"), Dev.alert(id: "b", body: "news"),
            Dev.alert(id: "c", body: "2-0", collapseID: "score"),
        ])
        XCTAssertEqual(screen.notifications.map(\.apnsID), ["c", "b"])
        XCTAssertEqual(screen.notifications.first?.body, "2-0")
        XCTAssertEqual(Dev.summary(entries).last, "a replaced 14-collapse-id-replacement")
        XCTAssertEqual(entries.last?.time, Dev.at(2))
        XCTAssertTrue(entries.last?.explanation.contains("\"score\"") ?? false)
    }

    func testCollapseIDsReplaceOnlyWithinOneAppAndAnEmptyOneNeverReplaces() {
        let (screen, entries) = screen([
            Dev.alert(id: "a", body: "x", collapseID: "k"),
            Dev.alert(id: "b", body: "y", topic: "com.example.other", collapseID: "k"),
            Dev.alert(id: "c", body: "z", collapseID: ""), Dev.alert(id: "d", body: "w", collapseID: ""),
        ])
        XCTAssertEqual(screen.notifications.map(\.apnsID), ["d", "c", "b", "a"])
        XCTAssertEqual(screen.notifications.map(\.collapseID), [nil, nil, "k", "k"])
        XCTAssertFalse(entries.contains { $0.outcome == .replaced })
    }

    func testACollapseIDPushThatIsNotPresentedLeavesTheEarlierOne() {
        let first = Dev.alert(id: "a", body: "x", collapseID: "k")
        let second = Dev.alert(id: "b", body: "y", collapseID: "k")
        let timeline = DeviceTimeline(settings: Dev.settings(), events: [
            .push(first, at: Dev.at(0)),
            .change(.settings(DeviceSettings(token: Dev.token, profile: DeviceProfile(state: .background, authorization: .denied))), at: Dev.at(1)),
            .push(second, at: Dev.at(2)),
        ])
        XCTAssertEqual(timeline.screen(at: Dev.at(2)).notifications.map(\.apnsID), ["a"])
        XCTAssertEqual(Dev.summary(timeline.entries(until: Dev.at(2))), ["a delivered 11-delivered-online", "b delivered 11-delivered-online"])
    }

    func testTheBadgeIsTheLastValueSetAndZeroClearsIt() {
        XCTAssertEqual(screen([Dev.alert(id: "a", body: "x", aps: #""badge": 4"#)]).0.badge, 4)
        XCTAssertEqual(screen([
            Dev.alert(id: "a", body: "x", aps: #""badge": 4"#), Dev.alert(id: "b", body: "y", aps: #""badge": 9"#),
            Dev.alert(id: "c", body: "z"),
        ]).0.badge, 9, "a push without badge leaves it")
        let cleared = screen([
            Dev.alert(id: "a", body: "x", aps: #""badge": 4"#), Dev.push(#"{"aps": {"badge": 0}}"#, id: "clear"),
        ]).0
        XCTAssertEqual(cleared.badge, 0)
        XCTAssertEqual(cleared.notifications.map(\.apnsID), ["a"], "a badge-only push shows nothing")
        XCTAssertEqual(screen([Dev.alert(id: "a", body: "x", aps: #""badge": "4""#)]).0.badge, 0, "a string badge is ignored")
    }

    func testAForegroundAppWhoseDelegateLeavesOutBadgeKeepsTheBadge() {
        var settings = Dev.settings(.foreground)
        settings.profile.foregroundPresentation = .options([.banner, .sound])
        XCTAssertEqual(screen([Dev.alert(id: "a", body: "x", aps: #""badge": 4"#)], settings: settings).0.badge, 0)
    }

    func testTheLockScreenListsNewestFirstGroupedByThreadID() {
        let (screen, _) = screen([
            Dev.alert(id: "b1", body: "x", aps: #""thread-id": "bob""#), Dev.alert(id: "n1", body: "y"),
            Dev.alert(id: "a1", body: "z", aps: #""thread-id": "alice""#), Dev.alert(id: "b2", body: "w", aps: #""thread-id": "bob""#),
        ])
        XCTAssertEqual(screen.notifications.map(\.apnsID), ["b2", "a1", "n1", "b1"])
        XCTAssertEqual(screen.groups.map(\.threadID), ["bob", "alice", nil])
        XCTAssertEqual(screen.groups.map { $0.notifications.map(\.apnsID) }, [["b2", "b1"], ["a1"], ["n1"]])
        XCTAssertEqual(screen.json["groups"]?.arrayElements?.first?["thread_id"], .string("bob"))
    }

    func testSoundsPlayedAreListedWithTheirNames() {
        var settings = Dev.settings()
        settings.profile.entitlements = [.criticalAlerts]
        let (screen, _) = screen([
            Dev.alert(id: "named", body: "x", aps: #""sound": "ping.aiff""#),
            Dev.alert(id: "critical", body: "y", aps: #""sound": {"critical": 1, "name": "siren.caf", "volume": 1.0}"#),
            Dev.alert(id: "silent", body: "z"),
            Dev.alert(id: "passive", body: "w", aps: #""sound": "ping.aiff", "interruption-level": "passive""#),
        ], settings: settings)
        XCTAssertEqual(screen.sounds.map(\.sound), ["ping.aiff", "siren.caf"])
        XCTAssertEqual(screen.sounds.map(\.apnsID), ["named", "critical"])
        XCTAssertEqual(screen.notifications.count, 4, "a passive notification still goes to Notification Center")
    }

    func testProvisionalAuthorizationListsQuietlyAndDeniedShowsNothing() {
        var provisional = Dev.settings()
        provisional.profile.authorization = .provisional
        let quiet = screen([Dev.alert(id: "a", body: "x", aps: #""sound": "default", "badge": 1"#)], settings: provisional).0
        XCTAssertEqual(quiet.notifications.map(\.apnsID), ["a"])
        XCTAssertEqual(quiet.sounds, [])
        var denied = Dev.settings()
        denied.profile.authorization = .denied
        let (nothing, entries) = screen([Dev.alert(id: "a", body: "x", aps: #""sound": "default", "badge": 1"#)], settings: denied)
        XCTAssertEqual(nothing.notifications, [])
        XCTAssertEqual(nothing.badge, 0)
        XCTAssertEqual(Dev.summary(entries), ["a delivered 11-delivered-online"], "APNs delivered it; iOS showed nothing")
    }

    func testAPushThePerPushModelDoesNotCoverIsDeliveredButLeftOffTheScreen() {
        let odd = Dev.push(#"{"aps": {"alert": "x", "badge": 3}}"#, id: "odd", type: .background, priority: .considerPower)
        let (screen, entries) = screen([odd])
        XCTAssertNotNil(entries.first?.simulation?.unknown)
        XCTAssertEqual(screen.notifications, [])
        XCTAssertEqual(screen.badge, 0)
        XCTAssertTrue(entries.first?.explanation.contains("leaves it out") ?? false)
    }

    func testNotificationFieldsComeFromThePayload() {
        let (screen, _) = screen([
            Dev.push(#"{"aps": {"alert": "Just a body", "thread-id": "t"}}"#, id: "s", collapseID: "c"),
            Dev.push(#"{"aps": {"alert": {"loc-key": "GREETING"}}}"#, id: "loc"),
        ])
        XCTAssertEqual(screen.notifications[1].json, json(#"{"apns_id": "s", "title": null, "body": "Just a body", "thread_id": "t", "collapse_id": "c", "time": \#(Dev.at(0)), "topic": "com.example.app"}"#))
        XCTAssertEqual(screen.notifications[0].title, nil)
        XCTAssertEqual(screen.notifications[0].body, nil)
    }

    func testWidgetVoIPAndLocationPushesAreDeliveredWithoutTouchingTheScreen() {
        let (screen, entries) = screen([
            Dev.push(#"{"aps": {"content-changed": true}}"#, id: "w", type: .widgets, topic: Dev.topic + ".push-type.widgets"),
            Dev.push(#"{"aps": {"alert": "ring"}}"#, id: "v", type: .voip, topic: Dev.topic + ".voip"),
        ])
        XCTAssertEqual(screen.notifications, [])
        XCTAssertEqual(screen.sounds, [])
        XCTAssertEqual(entries.map { $0.simulation?.events.first?.handler }, [
            DeliveryEvent.widgetReload.handler, DeliveryEvent.voip.handler,
        ])
    }
}
