import XCTest

@testable import APNsModel
@testable import DeviceSimulation

/// The JSON the control API will serve and take: settings, changes, screens and entries, snake_case keys.
final class DeviceJSONTests: XCTestCase {
    func testSettingsReadDefaultsForAbsentKeysAndRoundTrip() throws {
        XCTAssertEqual(try DeviceSettings(json: json("{}")), DeviceSettings())
        let settings = try DeviceSettings(json: json(#"""
            {"token": "abcd", "profile": {"state": "notRunning", "inAppRouting": true}, "background_budget_per_hour": 2,
             "live_activity_dismissal_ms": 1000, "live_activity_maximum_duration_ms": 2000, "storage_limit_ms": 3000}
            """#))
        XCTAssertEqual(settings, DeviceSettings(
            token: "abcd", profile: DeviceProfile(state: .notRunning, inAppRouting: true), backgroundBudgetPerHour: 2,
            liveActivityDismissalMillis: 1000, liveActivityMaximumDurationMillis: 2000, storageLimitMillis: 3000))
        XCTAssertEqual(try DeviceSettings(json: settings.json), settings)
        XCTAssertEqual(settings.json.objectKeys, DeviceSettings.jsonKeys)
    }

    func testBadSettingsSayWhichKeyAndWhatToWrite() {
        func message(_ text: String) -> String {
            do {
                _ = try DeviceSettings(json: json(text))
                return "accepted"
            } catch {
                return error.description
            }
        }
        XCTAssertEqual(message(#"{"budget": 3}"#),
                       "'settings.budget' is not a device setting or change field; use one of: \(DeviceSettings.jsonKeys.joined(separator: ", ")).")
        XCTAssertEqual(message(#"{"background_budget_per_hour": -1}"#),
                       "'settings.background_budget_per_hour' must be a whole number, 0 or more.")
        XCTAssertEqual(message(#"{"storage_limit_ms": 1.5}"#), "'settings.storage_limit_ms' must be a whole number, 0 or more.")
        XCTAssertEqual(message(#"{"token": 7}"#), "'settings.token' must be a string or null.")
        XCTAssertTrue(message(#"{"profile": {"state": "asleep"}}"#).hasPrefix("'settings.profile' must be a DeviceProfile"))
        XCTAssertEqual(message("[]"), "'settings' must be a JSON object.")
    }

    func testEveryChangeRoundTripsThroughItsJSON() throws {
        let changes: [DeviceChange] = [
            .online, .offline, .appState(.forceQuit), .settings(DeviceSettings(token: "t")),
            .tap(apnsID: "id", action: nil), .tap(apnsID: "id", action: "REPLY"),
            .liveActivityStarted(token: "aa", contentState: json(#"{"s": 1}"#)),
            .liveActivityToken(startedBy: "id", token: "bb"),
        ]
        for change in changes {
            XCTAssertEqual(try DeviceChange(json: change.json), change, change.json.jsonText())
        }
        XCTAssertEqual(Set(changes.compactMap { $0.json["change"]?.stringValue }), Set(DeviceChange.kinds))
    }

    func testChangeStepsCarryTheirInstant() throws {
        let event = try DeviceEvent(changeJSON: json(#"{"at": 1800000000000, "change": "app_state", "state": "background"}"#))
        XCTAssertEqual(event, .change(.appState(.background), at: 1_800_000_000_000))
        XCTAssertThrowsError(try DeviceEvent(changeJSON: json(#"{"change": "online"}"#))) { error in
            XCTAssertEqual((error as? DeviceModelError)?.description, "'at' must be an integer: milliseconds since 1970.")
        }
    }

    func testBadChangesSayWhatIsWrong() {
        func message(_ text: String) -> String {
            do {
                _ = try DeviceChange(json: json(text))
                return "accepted"
            } catch {
                return error.description
            }
        }
        XCTAssertEqual(message(#"{"change": "reboot"}"#),
                       "'reboot' is not a device change; use one of: \(DeviceChange.kinds.joined(separator: ", ")).")
        XCTAssertEqual(message(#"{"change": "tap"}"#), "'apns_id' is required here; add it.")
        XCTAssertEqual(message(#"{"change": "online", "state": "x"}"#),
                       "'state' is not a device setting or change field; use one of: change.")
        XCTAssertEqual(message(#"{"change": "app_state", "state": "asleep"}"#),
                       "'state' must be one of foreground, background, notRunning, forceQuit.")
        XCTAssertEqual(message(#"{"change": "live_activity_started", "token": "a", "content_state": 3}"#),
                       "'content_state' must be a JSON object (the activity's ContentState).")
        XCTAssertEqual(message(#"{"state": "x"}"#), "'change' must be one of \(DeviceChange.kinds.joined(separator: ", ")).")
    }

    func testTheScreenJSONHasEveryKeyNamedInSnakeCase() {
        let timeline = DeviceTimeline(settings: Dev.settings(), events: [
            .change(.liveActivityStarted(token: Dev.activityToken, contentState: json("{}")), at: Dev.t0),
            .push(Dev.alert(id: "a", body: "x", aps: #""sound": "default", "thread-id": "t""#), at: Dev.t0),
            .push(Dev.silent(id: "s"), at: Dev.t0),
            .change(.offline, at: Dev.t0), .push(Dev.alert(id: "b", body: "y"), at: Dev.t0),
        ])
        let screen = timeline.screen(at: Dev.t0).json
        XCTAssertEqual(screen.objectKeys, [
            "at", "token", "online", "app_state", "badge", "notifications", "groups", "stored", "live_activities",
            "sounds", "background_budget", "model",
        ])
        XCTAssertEqual(screen["notifications"]?.arrayElements?.first?.objectKeys,
                       ["apns_id", "title", "body", "thread_id", "collapse_id", "time", "topic"])
        XCTAssertEqual(screen["groups"]?.arrayElements?.first?.objectKeys, ["thread_id", "notifications"])
        XCTAssertEqual(screen["stored"]?.arrayElements?.first?.objectKeys,
                       ["apns_id", "time", "topic", "push_type", "deliverable_until", "limited_by"])
        XCTAssertEqual(screen["live_activities"]?.arrayElements?.first?.objectKeys, [
            "token", "started_by", "attributes_type", "content_state", "started_at", "updated_at", "stale_date", "stale",
            "ended", "ended_at", "ended_by", "dismissal_date", "dismissal_source", "dismissed",
        ])
        XCTAssertEqual(screen["sounds"]?.arrayElements?.first?.objectKeys, ["apns_id", "time", "sound"])
        XCTAssertEqual(screen["background_budget"]?.objectKeys,
                       ["limit", "window_ms", "used", "remaining", "next_free_at", "source"])
        XCTAssertEqual(screen["model"]?.objectKeys, ["background_budget_per_hour", "live_activity_dismissal_ms", "storage_limit_ms"])
    }

    func testEntryJSONCarriesTheSimulationOrTheTapAsSimulateAnswersThem() throws {
        let timeline = DeviceTimeline(settings: Dev.settings(), events: [
            .push(Dev.alert(id: "a", body: "x"), at: Dev.t0), .change(.tap(apnsID: "a", action: nil), at: Dev.at(1)),
            .change(.offline, at: Dev.at(2)), .push(Dev.alert(id: "b", body: "y"), at: Dev.at(3)),
        ])
        let entries = DeviceTimeline.json(timeline.entries(until: Dev.at(3))).arrayElements ?? []
        XCTAssertEqual(entries.map(\.objectKeys), [
            ["apns_id", "time", "outcome", "rule", "console_state", "explanation", "simulation"],
            ["apns_id", "time", "outcome", "rule", "console_state", "explanation", "tap"],
            ["apns_id", "time", "outcome", "rule", "console_state", "explanation"],
        ])
        XCTAssertEqual(entries.map { $0["console_state"] }, [.string("Delivered to Device"), .null, .string("Stored - Device Offline")],
                       "the Push Notifications Console's words beside the rule; a tap has none (device-rules §16)")
        XCTAssertEqual(entries[0]["simulation"], json(#"""
            {"events": [], "presentation": {"badge": null, "kind": "banner", "sound": false}, "warnings": []}
            """#))
        XCTAssertEqual(entries[1]["tap"]?["events"]?.arrayElements?.count, 1)
        XCTAssertEqual(entries[2]["outcome"], .string("stored"))
        XCTAssertEqual(entries[2]["rule"], .string("11-store-and-forward"))
    }

    func testRuleIdentifiersAreNumberedByTheirDeliveryRule() {
        for rule in DeviceRule.allCases {
            XCTAssertNotNil(rule.rawValue.range(of: #"^(5|1[1-5])-[a-z0-9-]+$"#, options: .regularExpression), rule.rawValue)
        }
        XCTAssertEqual(Set(DeviceRule.allCases.map(\.rawValue)).count, DeviceRule.allCases.count)
    }

    func testDurationsInSentencesUseTheLargestWholeUnit() {
        XCTAssertEqual(DeviceTime.describe(30 * 86_400_000), "30 days")
        XCTAssertEqual(DeviceTime.describe(86_400_000), "1 day")
        XCTAssertEqual(DeviceTime.describe(4 * 3_600_000), "4 h")
        XCTAssertEqual(DeviceTime.describe(90 * 60_000), "90 min")
        XCTAssertEqual(DeviceTime.describe(60_000), "1 min")
        XCTAssertEqual(DeviceTime.describe(59_000), "59 s")
        XCTAssertEqual(DeviceTime.describe(1500), "1500 ms")
        XCTAssertEqual(DeviceTime.describe(0), "0 ms")
    }
}
