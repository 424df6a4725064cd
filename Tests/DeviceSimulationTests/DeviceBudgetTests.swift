import XCTest

@testable import APNsModel
@testable import DeviceSimulation

/// device-rules §13: the background budget over a rolling hour, a model number.
final class DeviceBudgetTests: XCTestCase {
    private let minute: Int64 = 60

    func testTheFourthSilentPushWithinAnHourIsThrottled() {
        let t = DeviceTimeline(settings: Dev.settings(), events: (0..<4).map {
            .push(Dev.silent(id: "s\($0)"), at: Dev.at(Int64($0) * 5 * minute))
        })
        let entries = t.entries(until: Dev.at(15 * minute))
        XCTAssertEqual(entries.map(\.outcome), [.delivered, .delivered, .delivered, .throttled])
        XCTAssertEqual(Set(entries.map(\.rule)), [.backgroundBudget])
        XCTAssertNil(entries[3].simulation, "a throttled push runs nothing")
        XCTAssertTrue(entries[3].explanation.contains("model"), entries[3].explanation)
        XCTAssertTrue(entries[0].explanation.contains("1 of 3"), entries[0].explanation)
        let budget = t.screen(at: Dev.at(15 * minute)).backgroundBudget
        XCTAssertEqual(budget, DeviceBackgroundBudget(limit: 3, windowMillis: 3_600_000, used: 3, nextFreeAt: Dev.at(60 * minute)))
        XCTAssertEqual(budget.remaining, 0)
    }

    func testASlotFreesExactlyAnHourAfterItsUse() {
        let t = DeviceTimeline(settings: Dev.settings(), events: [
            .push(Dev.silent(id: "a"), at: Dev.at(0)), .push(Dev.silent(id: "b"), at: Dev.at(1)),
            .push(Dev.silent(id: "c"), at: Dev.at(2)),
            .push(Dev.silent(id: "early"), at: Dev.at(60 * minute) - 1),
            .push(Dev.silent(id: "onTime"), at: Dev.at(60 * minute)),
        ])
        XCTAssertEqual(t.entries(until: Dev.at(60 * minute)).map(\.outcome), [.delivered, .delivered, .delivered, .throttled, .delivered])
        XCTAssertEqual(t.screen(at: Dev.at(60 * minute) - 1).backgroundBudget.used, 3)
        XCTAssertEqual(t.screen(at: Dev.at(60 * minute)).backgroundBudget.used, 3, "b, c and onTime")
        XCTAssertEqual(t.screen(at: Dev.at(60 * minute + 2)).backgroundBudget.used, 1)
        XCTAssertEqual(t.screen(at: Dev.at(120 * minute)).backgroundBudget.nextFreeAt, nil)
    }

    func testTheBudgetIsASettingAndZeroThrottlesEverySilentPush() {
        var settings = Dev.settings()
        settings.backgroundBudgetPerHour = 0
        let t = DeviceTimeline(settings: settings, events: [.push(Dev.silent(id: "a"), at: Dev.t0)])
        XCTAssertEqual(t.entries(until: Dev.t0).map(\.outcome), [.throttled])
        XCTAssertEqual(t.screen(at: Dev.t0).json["model"]?["background_budget_per_hour"], .integer(0))
    }

    func testOnlySilentPushesThatWakeABackgroundAppCount() {
        var noCapability = Dev.settings()
        noCapability.profile.backgroundModesRemoteNotification = false
        for (label, settings) in [
            ("foreground", Dev.settings(.foreground)), ("forceQuit", Dev.settings(.forceQuit)),
            ("no background mode", noCapability),
        ] {
            let t = DeviceTimeline(settings: settings, events: (0..<5).map { .push(Dev.silent(id: "s\($0)"), at: Dev.at(Int64($0))) })
            XCTAssertEqual(Set(t.entries(until: Dev.at(5)).map(\.outcome)), [.delivered], label)
            XCTAssertEqual(t.screen(at: Dev.at(5)).backgroundBudget.used, 0, label)
        }
        let alertWithContent = Dev.alert(id: "a", body: "x", aps: #""content-available": 1"#)
        let t = DeviceTimeline(settings: Dev.settings(), events: (0..<5).map { _ in .push(alertWithContent, at: Dev.t0) })
        XCTAssertEqual(t.screen(at: Dev.t0).backgroundBudget.used, 0, "rule 13 counts content-available-only pushes")
    }

    func testANotRunningAppCountsAndIsLaunched() {
        let t = DeviceTimeline(settings: Dev.settings(.notRunning), events: [.push(Dev.silent(id: "a"), at: Dev.t0)])
        let entry = t.entries(until: Dev.t0)[0]
        XCTAssertEqual(entry.simulation?.events, [.launch, .didReceiveRemoteNotification])
        XCTAssertEqual(t.screen(at: Dev.t0).backgroundBudget.used, 1)
    }

    func testStoredSilentPushesCountWhenForwarded() {
        var settings = Dev.settings()
        settings.backgroundBudgetPerHour = 1
        let t = DeviceTimeline(settings: settings, events: [
            .push(Dev.silent(id: "a"), at: Dev.at(0)), .change(.offline, at: Dev.at(1)),
            .push(Dev.silent(id: "b"), at: Dev.at(2)), .change(.online, at: Dev.at(3)),
        ])
        let entries = t.entries(until: Dev.at(3))
        XCTAssertEqual(Dev.summary(entries).last, "b throttled 13-background-budget")
        XCTAssertTrue(entries.last?.explanation.contains("came back online") ?? false)
    }
}
