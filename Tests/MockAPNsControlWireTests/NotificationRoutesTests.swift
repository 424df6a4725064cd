import APNsModel
import MockAPNs
import MockAPNsControl
import XCTest
import TestSupport

/// `/api/v1/notifications` and `/api/v1/stats` over real HTTP.
final class NotificationRoutesTests: LeakCheckedTestCase {
    private func harnessWithRecords() async throws -> ControlTestHarness {
        let harness = try await ControlTestHarness.start()
        let recorder = harness.mock.recorder
        recorder.append(RecordFixtures.make(token: "aa11", topic: "com.example.app", pushType: "alert", apnsID: "00000000-0000-4000-8000-000000000001"))
        recorder.append(RecordFixtures.make(token: "bb22", topic: "com.example.app", pushType: "background", status: 400, reason: "BadDeviceToken", apnsID: "00000000-0000-4000-8000-000000000002"))
        recorder.append(RecordFixtures.make(token: "aa11", topic: "com.example.other", pushType: "alert", status: 410, reason: "Unregistered", apnsID: "00000000-0000-4000-8000-000000000003"))
        return harness
    }

    private func seqs(_ answer: HTTPAnswer) throws -> [Int64] {
        guard case .array(let items)? = try answer.json()["notifications"] else {
            XCTFail("no notifications array in \(answer.text)")
            return []
        }
        return items.compactMap { $0["seq"]?.integerValue }
    }

    func testListsEveryRecordOldestFirstInTheRecordingFormat() async throws {
        let harness = try await harnessWithRecords()
        addTeardownBlock { await harness.stop() }
        let answer = try await harness.client.send("GET", "/api/v1/notifications")
        await harness.stop()
        XCTAssertEqual(answer.status, 200)
        XCTAssertEqual(answer.headers["content-type"], "application/json; charset=utf-8")
        XCTAssertEqual(try seqs(answer), [1, 2, 3])
        let first = try answer.json()["notifications"].flatMap { value -> JSONValue? in
            if case .array(let items) = value { return items.first }
            return nil
        }
        XCTAssertEqual(first?["device_token"]?.stringValue, "aa11")
        XCTAssertEqual(first?.value(at: ["payload", "aps", "alert", "title"])?.stringValue, "Shipped")
        XCTAssertEqual(first?.value(at: ["response", "status"])?.integerValue, 200)
    }

    func testEachFilterNarrowsTheList() async throws {
        let harness = try await harnessWithRecords()
        addTeardownBlock { await harness.stop() }
        let client = harness.client
        let cases: [(String, [Int64])] = [
            ("token=aa11", [1, 3]),
            ("topic=com.example.other", [3]),
            ("push_type=background", [2]),
            ("status=400", [2]),
            ("reason=Unregistered", [3]),
            ("since=1", [2, 3]),
            ("limit=2", [2, 3]),
            ("token=aa11&status=200", [1]),
            ("token=ffff", []),
        ]
        for (query, expected) in cases {
            let answer = try await client.send("GET", "/api/v1/notifications?\(query)")
            XCTAssertEqual(answer.status, 200, query)
            XCTAssertEqual(try seqs(answer), expected, query)
        }
    }

    func testBadNumbersInFiltersAreA400WithASentence() async throws {
        let harness = try await harnessWithRecords()
        addTeardownBlock { await harness.stop() }
        let answer = try await harness.client.send("GET", "/api/v1/notifications?status=abc")
        let limit = try await harness.client.send("GET", "/api/v1/notifications?limit=-1")
        await harness.stop()
        XCTAssertEqual(answer.status, 400)
        XCTAssertEqual(try answer.json()["error"]?.stringValue, "Query parameter 'status' must be an integer of at least 0; got 'abc'.")
        XCTAssertEqual(limit.status, 400)
    }

    func testOneRecordBySequenceNumberOrAPNsID() async throws {
        let harness = try await harnessWithRecords()
        addTeardownBlock { await harness.stop() }
        let bySeq = try await harness.client.send("GET", "/api/v1/notifications/2")
        let byID = try await harness.client.send("GET", "/api/v1/notifications/00000000-0000-4000-8000-000000000003")
        let missing = try await harness.client.send("GET", "/api/v1/notifications/99")
        await harness.stop()
        XCTAssertEqual(bySeq.status, 200)
        XCTAssertEqual(try bySeq.json()["seq"]?.integerValue, 2)
        XCTAssertEqual(try bySeq.json().value(at: ["response", "reason"])?.stringValue, "BadDeviceToken")
        XCTAssertEqual(try byID.json()["seq"]?.integerValue, 3)
        XCTAssertEqual(missing.status, 404)
        XCTAssertTrue(try missing.json()["error"]?.stringValue?.contains("'99'") == true, missing.text)
    }

    func testDeleteClearsTheRecording() async throws {
        let harness = try await harnessWithRecords()
        addTeardownBlock { await harness.stop() }
        let deleted = try await harness.client.send("DELETE", "/api/v1/notifications")
        let after = try await harness.client.send("GET", "/api/v1/notifications")
        await harness.stop()
        XCTAssertEqual(deleted.status, 200)
        XCTAssertEqual(try deleted.json()["cleared"]?.integerValue, 3)
        XCTAssertEqual(try seqs(after), [])
    }

    func testStatsCountByStatusReasonAndPushType() async throws {
        let harness = try await harnessWithRecords()
        addTeardownBlock { await harness.stop() }
        let answer = try await harness.client.send("GET", "/api/v1/stats")
        await harness.stop()
        let stats = try answer.json()
        XCTAssertEqual(stats["total"]?.integerValue, 3)
        XCTAssertEqual(stats["accepted"]?.integerValue, 1)
        XCTAssertEqual(stats["rejected"]?.integerValue, 2)
        XCTAssertEqual(stats.value(at: ["by_status", "410"])?.integerValue, 1)
        XCTAssertEqual(stats.value(at: ["by_reason", "BadDeviceToken"])?.integerValue, 1)
        XCTAssertEqual(stats.value(at: ["by_push_type", "alert"])?.integerValue, 2)
    }

    func testHealthAndUnknownRoutesAnswerJSON() async throws {
        let harness = try await ControlTestHarness.start()
        addTeardownBlock { await harness.stop() }
        let health = try await harness.client.send("GET", "/healthz")
        let unknown = try await harness.client.send("GET", "/api/v1/nope")
        await harness.stop()
        XCTAssertEqual(health.status, 200)
        XCTAssertEqual(try health.json()["status"]?.stringValue, "ok")
        XCTAssertEqual(unknown.status, 404)
        XCTAssertTrue(try unknown.json()["error"]?.stringValue?.hasPrefix("No such endpoint: GET /api/v1/nope.") == true, unknown.text)
    }
}
