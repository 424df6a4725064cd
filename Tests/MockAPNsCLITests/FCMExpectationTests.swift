import JSON
import MockAPNs
import XCTest
@testable import MockAPNsCLI
import TestSupport

/// `mockapns expect --fcm`: FCM records checked in `expect`'s words (``ExpectationReport``), the closest three first,
/// ties newest first, each miss with what the record had.
final class FCMExpectationTests: LeakCheckedTestCase {
    private func record(seq: Int64, token: String, status: Int64) -> JSONValue {
        .object([
            .init("seq", .integer(seq)), .init("received_at_ms", .integer(0)), .init("project", .string("demo")),
            .init("name", .string("projects/demo/messages/m\(seq)")), .init("token", .string(token)),
            .init("status", .integer(status)),
        ])
    }

    func testAMissListsTheClosestFCMRecordsWithWhatTheyHad() throws {
        let filters = try FilterOptions.parse(["--token", "aaaa", "--status", "200"])
        let criteria = FCMInspection.criteria(filters, project: "demo", name: nil)
        let records = [record(seq: 1, token: "aaaa", status: 404), record(seq: 2, token: "bbbb", status: 200),
                       record(seq: 3, token: "cccc", status: 404)]
        let report = FCMInspection.evaluate(.atLeast(1), criteria: criteria, over: records)
        XCTAssertFalse(report.met)
        XCTAssertEqual(report.closest.map(\.seq), [2, 1, 3], "two of three met, newest first, then one")
        XCTAssertEqual(report.closest.first?.missed, ["token=aaaa (found token bbbb)"])
        let message = report.message(source: "http://127.0.0.1:2198")
        XCTAssertTrue(message.hasPrefix("expect: FAILED — wanted at least 1 FCM record with project=demo, token=aaaa, status=200; "
                                        + "0 matched (of 3 FCM records in http://127.0.0.1:2198).\nClosest FCM records:\n"), message)
        XCTAssertTrue(message.contains("meets 2 of 3; missed: status=200 (found 404 "), message)
        let json = report.json(source: "x")
        XCTAssertEqual(json["met"]?.boolValue, false)
        XCTAssertEqual(json["matching"]?.integerValue, 0)
        XCTAssertEqual(json["expected"]?.stringValue, "at least 1 FCM record")
    }

    func testNoFCMRecordsAtAllSaysSo() {
        let report = FCMInspection.evaluate(.exactly(1), criteria: [], over: [])
        XCTAssertEqual(report.message(source: "the mock"), """
            expect: FAILED — wanted exactly 1 FCM record with any FCM record; 0 matched (of 0 FCM records in the mock).
            No FCM records arrived at all.

            """)
    }
}
