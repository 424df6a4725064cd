import APNsModel
import MockAPNs
import MockAPNsControl
import TestSupport
import XCTest

/// `GET /api/v1/delivery-log/{apns-unique-id}`: one push's states over time in the Push Notifications Console's
/// words (device-rules §16), read from its device's timeline, which carries the same names as `console_state`.
final class DeliveryLogRouteTests: LeakCheckedTestCase {
    private let token = "aabbccddeeff00112233445566778899"
    private let t0: Int64 = 1_800_000_000_000
    private let uniqueID = "c0ffee00-0000-4000-8000-000000000001"
    private let apnsID = "0f1e2d3c-0000-4000-8000-000000000001"

    private func json(_ text: String) throws -> JSONValue { try JSONValue.parse(Array(text.utf8)) }

    func testAPushStoredWhileOfflineReadsFromReceivedToDeliveredFromStorage() async throws {
        let harness = try await ControlTestHarness.start()
        addTeardownBlock { await harness.stop() }
        let client = harness.client
        let offline = try await client.send("PUT", "/api/v1/devices/\(token)", body: #"{"online":false,"at":\#(t0)}"#)
        XCTAssertEqual(offline.status, 200, offline.text)
        harness.mock.recorder.append(.sample(receivedAtMillis: t0 + 60_000, token: token, apnsID: apnsID, apnsUniqueID: uniqueID))
        let online = try await client.send("POST", "/api/v1/devices/\(token)/changes", body: #"{"change":"online","at":\#(t0 + 120_000)}"#)
        XCTAssertEqual(online.status, 201, online.text)

        let whileStored = try await client.send("GET", "/api/v1/delivery-log/\(uniqueID)?until=\(t0 + 90_000)")
        let log = try await client.send("GET", "/api/v1/delivery-log/\(uniqueID.uppercased())?until=\(t0 + 120_000)")
        let timeline = try await client.send("GET", "/api/v1/devices/\(token)/timeline?until=\(t0 + 120_000)")
        await harness.stop()
        XCTAssertEqual(log.status, 200, log.text)
        XCTAssertEqual(log.headers["content-type"], "application/json; charset=utf-8")
        XCTAssertEqual(try log.json(), try json(#"""
            {"apns_unique_id": "\#(uniqueID)", "apns_id": "\#(apnsID)", "token": "\#(token)", "states": [
              {"at": \#(t0 + 60_000), "state": "Received by APNs", "rule": null},
              {"at": \#(t0 + 60_000), "state": "Stored - Device Offline", "rule": "11-store-and-forward"},
              {"at": \#(t0 + 120_000), "state": "Delivered to Device (From Storage)", "rule": "11-delivered-on-reconnect"}
            ]}
            """#))
        XCTAssertEqual(try whileStored.json()["states"]?.arrayElements?.compactMap { $0["state"]?.stringValue },
                       ["Received by APNs", "Stored - Device Offline"], "until= cuts the history at an instant")
        XCTAssertEqual(try timeline.json()["entries"]?.arrayElements?.map { $0["console_state"] },
                       [.string("Stored - Device Offline"), .string("Delivered to Device (From Storage)")],
                       "the timeline carries the Console's state beside the rule: \(timeline.text)")
    }

    func testWithoutUntilTheLogRunsToNowOnTheMocksClockAndNamesOnlyThatPush() async throws {
        let harness = try await ControlTestHarness.start()
        addTeardownBlock { await harness.stop() }
        harness.mock.clock.freeze(atMillis: t0 + 10_000)
        harness.mock.recorder.append(.sample(receivedAtMillis: t0, token: token, apnsID: apnsID, apnsUniqueID: uniqueID))
        harness.mock.recorder.append(.sample(receivedAtMillis: t0 + 1_000, token: token, apnsID: "0f1e2d3c-0000-4000-8000-000000000002",
                                             apnsUniqueID: "c0ffee00-0000-4000-8000-000000000002"))
        harness.mock.recorder.append(.sample(receivedAtMillis: t0 + 20_000, token: token, apnsID: "0f1e2d3c-0000-4000-8000-000000000003",
                                             apnsUniqueID: "c0ffee00-0000-4000-8000-000000000003"))
        let first = try await harness.client.send("GET", "/api/v1/delivery-log/\(uniqueID)")
        let future = try await harness.client.send("GET", "/api/v1/delivery-log/c0ffee00-0000-4000-8000-000000000003")
        await harness.stop()
        XCTAssertEqual(first.status, 200, first.text)
        XCTAssertEqual(try first.json()["states"], try json(#"""
            [{"at": \#(t0), "state": "Received by APNs", "rule": null},
             {"at": \#(t0), "state": "Delivered to Device", "rule": "11-delivered-online"}]
            """#))
        XCTAssertEqual(try future.json()["states"]?.arrayElements?.compactMap { $0["state"]?.stringValue }, ["Received by APNs"],
                       "a push received after now has not reached the device yet")
    }

    func testALiveActivityPushIsReadFromTheDeviceWhoseActivityHasItsToken() async throws {
        let harness = try await ControlTestHarness.start()
        addTeardownBlock { await harness.stop() }
        let activity = String(repeating: "a1", count: 32)
        let started = try await harness.client.send("POST", "/api/v1/devices/\(token)/changes", body: #"""
            {"change": "live_activity_started", "token": "\#(activity)", "content_state": {"score": "0-0"}, "at": \#(t0)}
            """#)
        XCTAssertEqual(started.status, 201, started.text)
        let update = try json(#"{"aps": {"event": "update", "timestamp": \#(t0 / 1000 + 5), "content-state": {"score": "1-0"}}}"#)
        harness.mock.recorder.append(.sample(
            receivedAtMillis: t0 + 5_000, token: activity, topic: "com.example.app.push-type.liveactivity", pushType: "liveactivity",
            payload: update, apnsID: apnsID, apnsUniqueID: uniqueID))
        let log = try await harness.client.send("GET", "/api/v1/delivery-log/\(uniqueID)?until=\(t0 + 5_000)")
        await harness.stop()
        XCTAssertEqual(log.status, 200, log.text)
        XCTAssertEqual(try log.json()["token"]?.stringValue, activity, "the push's own token")
        let states = try log.json()["states"]?.arrayElements?.map { state -> [String?] in
            [state["state"]?.stringValue, state["rule"]?.stringValue]
        }
        XCTAssertEqual(states, [["Received by APNs", nil], ["Delivered to Device", "15-live-activity-update"]])
    }

    func testAnIDNoRecordWasAnsweredWithIsA404InTheUsualErrorShape() async throws {
        let harness = try await ControlTestHarness.start()
        addTeardownBlock { await harness.stop() }
        harness.mock.recorder.append(.sample(receivedAtMillis: t0, token: token, apnsID: apnsID, apnsUniqueID: uniqueID))
        harness.mock.recorder.append(.sample(receivedAtMillis: t0, token: token, status: 400, reason: "BadTopic",
                                             apnsID: "0f1e2d3c-0000-4000-8000-00000000bad0"))
        let unknown = try await harness.client.send("GET", "/api/v1/delivery-log/00000000-0000-4000-8000-00000000dead")
        let byAPNsID = try await harness.client.send("GET", "/api/v1/delivery-log/\(apnsID)")
        let badUntil = try await harness.client.send("GET", "/api/v1/delivery-log/\(uniqueID)?until=yesterday")
        await harness.stop()
        for answer in [unknown, byAPNsID] {
            XCTAssertEqual(answer.status, 404, answer.text)
            XCTAssertTrue(try answer.json()["error"]?.stringValue?.contains("apns-unique-id") == true, answer.text)
        }
        XCTAssertEqual(badUntil.status, 400, badUntil.text)
        XCTAssertTrue(try badUntil.json()["error"]?.stringValue?.contains("milliseconds since 1970") == true, badUntil.text)
    }
}
