import JSON
import MockAPNsFCM
import MockAPNsRecording
import XCTest

/// An expectation of FCM records (`GET /api/v1/fcm/expect`, `mockapns expect --fcm`, the kits' FCM expectations), in
/// the words of every other expectation: the three closest misses first, ties newest first, each with what it had.
final class FCMExpectationTests: XCTestCase {
    private func record(seq: Int64, token: String, status: Int64, validateOnly: Bool = false) -> JSONValue {
        .object([
            .init("seq", .integer(seq)), .init("name", .string("projects/demo/messages/m\(seq)")), .init("project", .string("demo")),
            .init("received_at_ms", .integer(0)), .init("validate_only", .bool(validateOnly)), .init("token", .string(token)),
            .init("status", .integer(status)),
        ])
    }

    func testAMissListsTheClosestFCMRecordsWithWhatTheyHad() {
        let expectation = FCMExpectation(filter: .init(project: "demo", token: "aaaa", status: 200), quantity: .atLeast(1))
        let report = expectation.evaluate([record(seq: 1, token: "aaaa", status: 404), record(seq: 2, token: "bbbb", status: 200),
                                           record(seq: 3, token: "cccc", status: 404)])
        XCTAssertFalse(report.met)
        XCTAssertEqual(report.closest.map(\.seq), [2, 1, 3], "two of three met, newest first, then one")
        XCTAssertEqual(report.closest.first?.missed, ["token=aaaa (found token bbbb)"])
        let message = report.message(source: "the mock's FCM records")
        XCTAssertTrue(message.hasPrefix("expect: FAILED — wanted at least 1 FCM record with project=demo, token=aaaa, status=200; "
                                        + "0 matched (of 3 FCM records in the mock's FCM records).\nClosest FCM records:\n"), message)
        XCTAssertTrue(message.contains("meets 2 of 3; missed: status=200 (found 404)"), message)
        let json = report.json(source: "x")
        XCTAssertEqual(json["met"]?.boolValue, false)
        XCTAssertEqual(json["matching"]?.integerValue, 0)
        XCTAssertEqual(json["expected"]?.stringValue, "at least 1 FCM record")
    }

    func testARecordWithoutATargetMissesATargetAsAbsent() {
        let refused: JSONValue = .object([.init("seq", .integer(1)), .init("project", .string("demo")), .init("status", .integer(400))])
        let report = FCMExpectation(filter: .init(token: "aaaa"), quantity: .atLeast(1)).evaluate([refused])
        XCTAssertEqual(report.closest.first?.missed, ["token=aaaa (absent)"])
    }

    func testANameMatchesByItsLastPartAndADryRunByItsFlag() {
        let records = [record(seq: 1, token: "aaaa", status: 200), record(seq: 2, token: "aaaa", status: 200, validateOnly: true)]
        let byName = FCMExpectation(filter: .init(name: "m2"), quantity: .exactly(1)).evaluate(records)
        XCTAssertEqual(byName.matchedSeqs, [2])
        let dryRuns = FCMExpectation(filter: .init(validateOnly: false), quantity: .exactly(0)).evaluate(records)
        XCTAssertFalse(dryRuns.met)
        XCTAssertEqual(dryRuns.matchedSeqs, [1])
        XCTAssertTrue(dryRuns.message(source: "x").contains("#1  "), "a none lists what matched")
    }

    func testNoFCMRecordsAtAllSaysSo() {
        XCTAssertEqual(FCMExpectation(filter: .init(), quantity: .exactly(1)).evaluate([]).message(source: "the mock"), """
            expect: FAILED — wanted exactly 1 FCM record with any FCM record; 0 matched (of 0 FCM records in the mock).
            No FCM records arrived at all.

            """)
    }
}
