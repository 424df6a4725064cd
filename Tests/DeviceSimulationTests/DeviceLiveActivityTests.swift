import XCTest

@testable import APNsModel
@testable import DeviceSimulation

/// device-rules §15: Live Activities started, updated, ended, dismissed and stale.
final class DeviceLiveActivityTests: XCTestCase {
    /// `t0` in seconds, as `timestamp`, `stale-date` and `dismissal-date` are written.
    private let s0 = Dev.t0 / 1000
    private let hour: Int64 = 3600

    private func update(_ id: String, at seconds: Int64, score: String, more: String = "", token: String = Dev.activityToken) -> AcceptedPush {
        Dev.liveActivity(id: id, token: token, aps: #""event": "update", "timestamp": \#(s0 + seconds), "content-state": {"score": "\#(score)"}\#(more)"#)
    }

    private func end(_ id: String, at seconds: Int64, more: String = "") -> AcceptedPush {
        Dev.liveActivity(id: id, aps: #""event": "end", "timestamp": \#(s0 + seconds), "content-state": {"score": "final"}\#(more)"#)
    }

    private let started = DeviceEvent.change(.liveActivityStarted(token: Dev.activityToken, contentState: .object([.init("score", .string("0-0"))])), at: Dev.t0)

    func testAnUpdateSetsTheContentStateOfTheActivityWithThatToken() {
        let t = DeviceTimeline(settings: Dev.settings(), events: [started, .push(update("u", at: 10, score: "1-0"), at: Dev.at(10))])
        let activity = t.screen(at: Dev.at(10)).liveActivities[0]
        XCTAssertEqual(activity.contentState, json(#"{"score": "1-0"}"#))
        XCTAssertEqual(activity.updatedAt, Dev.at(10))
        XCTAssertEqual(activity.timestamp, Dev.at(10))
        XCTAssertFalse(activity.ended || activity.stale || activity.dismissed)
        XCTAssertEqual(Dev.summary(t.entries(until: Dev.at(10))), ["u delivered 15-live-activity-update"])
        XCTAssertEqual(t.screen(at: Dev.at(10)).notifications, [], "a Live Activity update is not a notification")
    }

    func testTokensMatchWhateverTheirCase() {
        let t = DeviceTimeline(events: [started, .push(update("u", at: 10, score: "1-0", token: Dev.activityToken.uppercased()), at: Dev.at(10))])
        XCTAssertEqual(t.entries(until: Dev.at(10)).first?.rule, .liveActivityUpdate)
    }

    func testAStaleDateInThePastMarksItStaleAndTheNextUpdateWithoutOneClearsIt() {
        let t = DeviceTimeline(events: [
            started, .push(update("u1", at: 10, score: "1-0", more: #", "stale-date": \#(s0 + 100)"#), at: Dev.at(10)),
            .push(update("u2", at: 200, score: "2-0"), at: Dev.at(200)),
        ])
        XCTAssertFalse(t.screen(at: Dev.at(100) - 1).liveActivities[0].stale)
        XCTAssertTrue(t.screen(at: Dev.at(100)).liveActivities[0].stale)
        XCTAssertEqual(t.screen(at: Dev.at(150)).liveActivities[0].staleDate, Dev.at(100))
        XCTAssertFalse(t.screen(at: Dev.at(200)).liveActivities[0].stale)
        XCTAssertNil(t.screen(at: Dev.at(200)).liveActivities[0].staleDate)
    }

    func testAnEndedActivityStaysFourHoursByDefaultThenIsDismissed() {
        let t = DeviceTimeline(events: [started, .push(end("e", at: 60), at: Dev.at(60))])
        let ended = t.screen(at: Dev.at(60)).liveActivities[0]
        XCTAssertTrue(ended.ended)
        XCTAssertEqual(ended.endedBy, .push)
        XCTAssertEqual(ended.contentState, json(#"{"score": "final"}"#))
        XCTAssertEqual(ended.dismissalDate, Dev.at(60 + 4 * hour))
        XCTAssertEqual(ended.dismissalSource, .model)
        XCTAssertFalse(t.screen(at: Dev.at(60 + 4 * hour) - 1).liveActivities[0].dismissed)
        XCTAssertTrue(t.screen(at: Dev.at(60 + 4 * hour)).liveActivities[0].dismissed)
        let entry = t.entries(until: Dev.at(60))[0]
        XCTAssertEqual(entry.rule, .liveActivityEnd)
        XCTAssertTrue(entry.explanation.contains("model"), entry.explanation)
    }

    func testTheDismissalDateIsHonouredUpToTheDismissalLimitAndOneInThePastDismissesAtOnce() {
        func dismissal(_ date: Int64) -> DeviceLiveActivity {
            DeviceTimeline(events: [started, .push(end("e", at: 60, more: #", "dismissal-date": \#(date)"#), at: Dev.at(60))])
                .screen(at: Dev.at(60)).liveActivities[0]
        }
        let soon = dismissal(s0 + 600)
        XCTAssertEqual(soon.dismissalDate, Dev.at(600))
        XCTAssertEqual(soon.dismissalSource, .payload)
        let late = dismissal(s0 + 60 + 10 * hour)
        XCTAssertEqual(late.dismissalDate, Dev.at(60 + 4 * hour), "ActivityKit removes it after four hours at most")
        XCTAssertEqual(late.dismissalSource, .model)
        let past = dismissal(s0)
        XCTAssertEqual(past.dismissalDate, Dev.at(60))
        XCTAssertTrue(past.dismissed)
        XCTAssertEqual(dismissal(Int64.max).dismissalSource, .model, "a huge date saturates and is capped")
    }

    func testTheDismissalTimeIsAModelSetting() {
        var settings = Dev.settings()
        settings.liveActivityDismissalMillis = 0
        let t = DeviceTimeline(settings: settings, events: [started, .push(end("e", at: 60), at: Dev.at(60))])
        XCTAssertTrue(t.screen(at: Dev.at(60)).liveActivities[0].dismissed)
        XCTAssertEqual(t.screen(at: Dev.at(60)).json["model"]?["live_activity_dismissal_ms"], .integer(0))
    }

    func testUpdatesAfterTheEndAndOlderTimestampsAreIgnored() {
        let t = DeviceTimeline(events: [
            started, .push(update("new", at: 100, score: "2-0"), at: Dev.at(100)),
            .push(update("old", at: 50, score: "1-0"), at: Dev.at(110)),
            .push(update("same", at: 100, score: "2-1"), at: Dev.at(120)),
            .push(end("end", at: 130), at: Dev.at(130)),
            .push(update("late", at: 140, score: "3-0"), at: Dev.at(140)),
        ])
        XCTAssertEqual(Dev.summary(t.entries(until: Dev.at(140))), [
            "new delivered 15-live-activity-update", "old dropped 15-live-activity-out-of-date",
            "same delivered 15-live-activity-update", "end delivered 15-live-activity-end",
            "late dropped 15-live-activity-ended",
        ])
        XCTAssertEqual(t.screen(at: Dev.at(140)).liveActivities[0].contentState, json(#"{"score": "final"}"#))
    }

    func testAnUpdateToATokenNoActivityHasIsDropped() {
        let t = DeviceTimeline(events: [.push(update("u", at: 10, score: "1-0"), at: Dev.at(10))])
        let entry = t.entries(until: Dev.at(10))[0]
        XCTAssertEqual(entry.outcome, .dropped)
        XCTAssertEqual(entry.rule, .liveActivityUnknownToken)
        XCTAssertNil(entry.simulation)
        XCTAssertEqual(t.screen(at: Dev.at(10)).liveActivities, [])
    }

    func testPushToStartCreatesAnActivityThatUpdatesReachOnceItsTokenIsReported() {
        let start = Dev.liveActivity(id: "start", token: String(repeating: "b2", count: 32), aps: #"""
            "event": "start", "timestamp": \#(s0), "content-state": {"score": "0-0"}, "attributes-type": "Match",
            "attributes": {"home": "A"}, "alert": {"title": "Kick-off", "body": "A v B", "sound": "whistle.caf"}
            """#)
        let t = DeviceTimeline(events: [
            .push(start, at: Dev.t0), .push(update("early", at: 5, score: "1-0"), at: Dev.at(5)),
            .change(.liveActivityToken(startedBy: "start", token: Dev.activityToken), at: Dev.at(6)),
            .push(update("u", at: 7, score: "2-0"), at: Dev.at(7)),
        ])
        let before = t.screen(at: Dev.at(5))
        XCTAssertEqual(before.liveActivities.map(\.token), [nil])
        XCTAssertEqual(before.liveActivities.map(\.startedBy), ["start"])
        XCTAssertEqual(before.liveActivities.map(\.attributesType), ["Match"])
        XCTAssertEqual(before.sounds.map(\.sound), ["whistle.caf"])
        XCTAssertEqual(before.notifications, [], "a Live Activity's alert is not a Notification Center entry")
        XCTAssertEqual(Dev.summary(t.entries(until: Dev.at(7))), [
            "start delivered 15-live-activity-start", "early dropped 15-live-activity-unknown-token",
            "u delivered 15-live-activity-update",
        ])
        XCTAssertEqual(t.screen(at: Dev.at(7)).liveActivities[0].contentState, json(#"{"score": "2-0"}"#))
    }

    func testAnActivityEndsAfterTheMaximumDurationAndLaterUpdatesAreIgnored() {
        let eight = 8 * hour
        let t = DeviceTimeline(events: [started, .push(update("late", at: eight + 1, score: "9-9"), at: Dev.at(eight + 1))])
        XCTAssertFalse(t.screen(at: Dev.at(eight) - 1).liveActivities[0].ended)
        let ended = t.screen(at: Dev.at(eight)).liveActivities[0]
        XCTAssertEqual(ended.endedAt, Dev.at(eight))
        XCTAssertEqual(ended.endedBy, .maximumDuration)
        XCTAssertEqual(ended.dismissalDate, Dev.at(eight + 4 * hour))
        XCTAssertEqual(Dev.summary(t.entries(until: Dev.at(eight + 1))), ["late dropped 15-live-activity-ended"])
        XCTAssertTrue(t.screen(at: Dev.at(12 * hour)).liveActivities[0].dismissed)
    }

    func testAnUpdateActivityKitRejectsForMissingKeysChangesNothing() {
        let broken = Dev.liveActivity(id: "b", aps: #""event": "update", "content-state": {"score": "x"}"#)
        let t = DeviceTimeline(events: [started, .push(broken, at: Dev.at(1))])
        let entry = t.entries(until: Dev.at(1))[0]
        XCTAssertEqual(entry.outcome, .delivered)
        XCTAssertEqual(entry.simulation?.events, [])
        XCTAssertEqual(t.screen(at: Dev.at(1)).liveActivities[0].contentState, json(#"{"score": "0-0"}"#))
    }

    func testHugeStaleDatesSaturate() {
        let t = DeviceTimeline(events: [started, .push(update("u", at: 1, score: "x", more: #", "stale-date": 1e300"#), at: Dev.at(1))])
        XCTAssertEqual(t.screen(at: Dev.at(1)).liveActivities[0].staleDate, .max)
        XCTAssertFalse(t.screen(at: Dev.at(1)).liveActivities[0].stale)
    }
}
