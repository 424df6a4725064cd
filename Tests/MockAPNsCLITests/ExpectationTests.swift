import APNsModel
import MockAPNs
import XCTest
@testable import MockAPNsCLI
import TestSupport

/// `mockapns expect`: which records meet an expectation, pass or fail, and the report and JSON it prints, checked
/// against what the binary printed for the fixture recording (goldens.json).
final class ExpectationTests: LeakCheckedTestCase {
    private let plain = TerminalStyle(enabled: false)

    /// The expectation streamed over the recording through a tally, as `expect --file` does.
    private func tally(_ expectation: Expectation, path: String = InspectFixtures.recording) throws -> ExpectationResult {
        var tally = ExpectationTally(expectation)
        try RecordFile(path: path).forEachRecord { record in
            tally.add(record)
            return true
        }
        return tally.result()
    }

    func testExactCountFailureListsTheLastFiveMatchesAsTheBinaryPrintedThem() throws {
        let expectation = Expectation(filter: RecordFilter(topic: "com.example.app"),
                                      conditions: [try PayloadCondition(parsing: "aps.alert.title=Shipped")], quantity: .exactly(7))
        let result = try tally(expectation)
        XCTAssertFalse(result.met)
        XCTAssertEqual(result.matchedCount, 9)
        XCTAssertEqual(result.report.message(source: InspectFixtures.recording, marks: .init(plain)), try InspectFixtures.goldenStdout(
            ["expect", "--topic", "com.example.app", "--where", "aps.alert.title=Shipped", "--count", "7"]))
    }

    func testAMissShowsTheThreeClosestRecordsNewestFirstWithWhatTheyHad() throws {
        let expectation = Expectation(filter: RecordFilter(), conditions: [try PayloadCondition(parsing: "aps.alert.title=Shiped")],
                                      quantity: .atLeast(1))
        let result = try tally(expectation)
        XCTAssertEqual(result.closest.map(\.record.seq), [17, 16, 15])
        XCTAssertEqual(result.closest.first?.misses, ["aps.alert.title=Shiped (found \"Shipped\")"])
        XCTAssertEqual(result.report.message(source: InspectFixtures.recording, marks: .init(plain)),
                       try InspectFixtures.goldenStdout(["expect", "--where", "aps.alert.title=Shiped"]))
        XCTAssertEqual(result.report.json(source: InspectFixtures.recording).jsonText() + "\n",
                       try InspectFixtures.goldenStdout(["expect", "--where", "aps.alert.title=Shiped", "--json"]))
    }

    func testNoneFailsWhenAnyRecordMatches() throws {
        let result = try tally(Expectation(filter: RecordFilter(status: 503), conditions: [], quantity: .exactly(0)))
        XCTAssertFalse(result.met)
        XCTAssertEqual(result.matchedSeqs, [8, 9, 10, 11])
        XCTAssertEqual(result.report.message(source: InspectFixtures.recording, marks: .init(plain)),
                       try InspectFixtures.goldenStdout(["expect", "--none", "--status", "503"]))
    }

    func testAtLeastPassesAndItsJSONListsEveryMatchAndTheClosestMisses() throws {
        let result = try tally(Expectation(filter: RecordFilter(topic: "com.example.app"), conditions: [], quantity: .atLeast(2)))
        XCTAssertTrue(result.met)
        XCTAssertEqual(result.report.json(source: InspectFixtures.recording).jsonText() + "\n",
                       try InspectFixtures.goldenStdout(["expect", "--json", "--topic", "com.example.app", "--at-least", "2"]))
    }

    func testSinceNarrowsTheRecordsConsideredAndAPassSaysOk() throws {
        let result = try tally(Expectation(filter: RecordFilter(since: 4), conditions: [try PayloadCondition(parsing: "sync=orders")],
                                           quantity: .atLeast(1)))
        XCTAssertEqual(result.considered, 13)
        XCTAssertEqual(result.matchedSeqs, [5])
        XCTAssertEqual(result.report.message(source: "rec.jsonl", marks: .init(plain)),
                       "expect: ok — 1 matched (of 13 records in rec.jsonl); wanted at least 1 record with sync=orders.\n")
    }

    func testTheInMemoryEvaluationAgreesWithTheTally() throws {
        let expectation = Expectation(filter: RecordFilter(status: 200), conditions: [], quantity: .exactly(2))
        let records = try InspectFixtures.records()
        XCTAssertEqual(expectation.evaluate(records).report.json(source: InspectFixtures.recording).jsonText(), try tally(expectation).report.json(source: InspectFixtures.recording).jsonText())
        XCTAssertEqual(expectation.evaluate(records).report.json(source: InspectFixtures.recording).jsonText() + "\n",
                       try InspectFixtures.goldenStdout(["expect", "--status", "200", "--count", "2", "--json"]))
    }

    /// A token matches whatever its case, as `RecordFilter` and `/api/v1/notifications` match it.
    func testATokenMatchesWhateverItsCase() {
        let records = [RecordedRequest.sample(seq: 1, token: "aabbccddeeff00112233445566778899"),
                       RecordedRequest.sample(seq: 2, token: "00112233445566778899aabbccddeeff")]
        let upper = Expectation(filter: RecordFilter(token: "AABBCCDDEEFF00112233445566778899"), conditions: [],
                                quantity: .exactly(1)).evaluate(records)
        XCTAssertTrue(upper.met)
        XCTAssertEqual(upper.matchedSeqs, [1])
        XCTAssertEqual(records.filter(RecordFilter(token: "AABBCCDDEEFF00112233445566778899").matches).map(\.seq), [1])
    }

    func testAnEmptyRecordingSaysNoRecordsArrived() {
        let result = Expectation(filter: RecordFilter(token: "abcd"), conditions: [], quantity: .atLeast(1)).evaluate([])
        XCTAssertEqual(result.report.message(source: "http://127.0.0.1:2198", marks: .init(plain)), """
            expect: FAILED — wanted at least 1 record with token=abcd; 0 matched (of 0 records in http://127.0.0.1:2198).
            No records arrived at all.

            """)
    }

    func testAFailureIsRedAndAPassGreenOnATerminal() {
        let colour = TerminalStyle(enabled: true)
        let failed = Expectation(filter: RecordFilter(), conditions: [], quantity: .exactly(1)).evaluate([])
        XCTAssertTrue(failed.report.message(source: "x", marks: .init(colour)).hasPrefix("\u{1B}[31mexpect: FAILED\u{1B}[0m — wanted exactly 1 record with any record;"))
        let passed = Expectation(filter: RecordFilter(), conditions: [], quantity: .exactly(1)).evaluate([makeRecord(seq: 1)])
        XCTAssertTrue(passed.report.message(source: "x", marks: .init(colour)).hasPrefix("\u{1B}[32mexpect: ok\u{1B}[0m — 1 matched (of 1 record in x)"))
    }

    func testQuantityPhrasesAndAcceptance() {
        XCTAssertEqual(Expectation.Quantity.atLeast(1).phrase(.record), "at least 1 record")
        XCTAssertEqual(Expectation.Quantity.atLeast(3).phrase(.record), "at least 3 records")
        XCTAssertEqual(Expectation.Quantity.exactly(0).phrase(.record), "no records")
        XCTAssertEqual(Expectation.Quantity.exactly(1).phrase(.record), "exactly 1 record")
        XCTAssertTrue(Expectation.Quantity.atLeast(2).accepts(5))
        XCTAssertFalse(Expectation.Quantity.atLeast(2).accepts(1))
        XCTAssertFalse(Expectation.Quantity.exactly(2).accepts(3))
    }

    func testPayloadConditionsCompareStringsNumbersBooleansNullsAndJSON() throws {
        let payload = try JSONValue.parse(Array(#"{"aps":{"badge":3,"alert":{"loc-args":["a","b"]}},"flag":true,"gone":null,"n":2.5}"#.utf8))
        func holds(_ text: String) throws -> Bool { try PayloadCondition(parsing: text).matches(payload) }
        XCTAssertTrue(try holds("aps.badge=3"))
        XCTAssertTrue(try holds("aps.badge=3.0"), "numbers compare numerically")
        XCTAssertFalse(try holds("aps.badge=three"))
        XCTAssertTrue(try holds("aps.alert.loc-args.1=b"), "array elements by index")
        XCTAssertFalse(try holds("aps.alert.loc-args.2=b"))
        XCTAssertTrue(try holds(#"aps.alert.loc-args=["a","b"]"#), "arrays and objects by their compact JSON")
        XCTAssertTrue(try holds("flag=true"))
        XCTAssertTrue(try holds("gone=null"))
        XCTAssertFalse(try holds("missing=null"), "an absent path is not null")
        XCTAssertTrue(try holds("n=2.5"))
        XCTAssertEqual(try PayloadCondition(parsing: "a.b=c=d").expected, "c=d", "the first = splits")
        XCTAssertEqual(try PayloadCondition(parsing: "aps.badge=1").found(in: payload), "3")
        XCTAssertNil(try PayloadCondition(parsing: "aps.sound=default").found(in: payload))
    }

    func testAConditionWithoutPathOrEqualsSaysWhatItNeeds() {
        for text in ["aps.alert.title", "=Shipped"] {
            XCTAssertThrowsError(try PayloadCondition(parsing: text)) { error in
                XCTAssertEqual((error as? ExpectationError)?.description,
                               "a payload condition is PATH=VALUE, e.g. aps.alert.title=Shipped; got '\(text)'")
            }
        }
    }
}
