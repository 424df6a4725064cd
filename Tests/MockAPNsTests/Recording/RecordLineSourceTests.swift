import APNsModel
import DeviceSimulation
import Foundation
import MockTestSupport
import XCTest
@testable import MockAPNs
@testable import MockAPNsRecording

/// A record read from a JSON line answers `jsonValue()` with the tree parsed when it was read, and that tree is
/// always what encoding the record and parsing the line would give (the way every other record answers).
final class RecordLineSourceTests: LeakCheckedTestCase {
    /// The record's JSON form the long way: its line, encoded and parsed.
    private func encodedAndParsed(_ record: RecordedRequest) throws -> JSONValue {
        var encoder = JSONLineEncoder()
        encoder.encode(record, payloadAsValue: true)
        return try JSONValue.parse(encoder.bytes)
    }

    /// A line as the recorder writes it, for a body the sender spaced out over several lines.
    private func recordedLine() throws -> [UInt8] {
        let body = Array("{ \"aps\" : {\n  \"alert\" : \"a \\\"quoted\\\" {brace}\",\r\n  \"badge\" : 1.50 } }".utf8)
        var record = RecordedRequest.sample(seq: 7, payload: try JSONValue.parse(body), body: body)
        record.relay = .notRelayed("a match rule")
        var encoder = JSONLineEncoder()
        encoder.encode(record)
        return Array(encoder.bytes.dropLast())   // as readers hand lines over, without the newline
    }

    func testALineTheRecorderWroteIsServedFromItsParsedTree() throws {
        let line = try recordedLine()
        let record = try RecordedRequest(jsonLine: line)
        let source = try XCTUnwrap(record.readFrom)
        XCTAssertEqual(source.tree(for: record), try JSONValue.parse(line), "the tree parsed when read")
        XCTAssertEqual(record.jsonValue(), try encodedAndParsed(record))
        XCTAssertEqual(record.body, Array("{ \"aps\" : {   \"alert\" : \"a \\\"quoted\\\" {brace}\",    \"badge\" : 1.50 } }".utf8),
                       "the body is the payload's text in the line, not the parsed payload encoded again")
        XCTAssertEqual(record.payload?["aps"]?["badge"], .double(1.5))
    }

    func testARenumberedRecordOfAStoreIsPatchedNotEncodedAgain() throws {
        var record = try RecordedRequest(jsonLine: try recordedLine())
        record.seq = 123_456
        record.instance = "east-1"
        XCTAssertNotNil(record.readFrom?.tree(for: record), "seq and instance are patched in")
        XCTAssertEqual(record.jsonValue(), try encodedAndParsed(record))
        XCTAssertEqual(record.jsonValue().objectMembers?.last?.key, "instance")

        // A line that names its instance, read back and named otherwise, or not at all.
        var encoder = JSONLineEncoder()
        encoder.encode(record)
        var again = try RecordedRequest(jsonLine: encoder.bytes.dropLast())
        XCTAssertEqual(again.instance, "east-1")
        again.instance = "west-2"
        XCTAssertNotNil(again.readFrom?.tree(for: again))
        XCTAssertEqual(again.jsonValue(), try encodedAndParsed(again))
        again.instance = nil
        XCTAssertEqual(again.jsonValue(), try encodedAndParsed(again))
        XCTAssertNil(again.jsonValue()["instance"])
    }

    func testAChangedRecordIsEncodedAgain() throws {
        let line = try recordedLine()
        var status = try RecordedRequest(jsonLine: line)
        status.response.status = 410
        XCTAssertNil(status.readFrom?.tree(for: status))
        XCTAssertEqual(status.jsonValue(), try encodedAndParsed(status))
        XCTAssertEqual(status.jsonValue()["response"]?["status"], .integer(410))

        var payload = try RecordedRequest(jsonLine: line)
        payload.payload = .object([.init("aps", .object([.init("badge", .integer(9))]))])
        XCTAssertNil(payload.readFrom, "the line no longer says what the payload is")
        XCTAssertEqual(payload.jsonValue()["payload"]?["aps"]?["badge"], .integer(9))

        var lint = try RecordedRequest(jsonLine: line)
        lint.lint = [LintFinding(id: "x", severity: .warning, message: "m", path: "aps")]
        XCTAssertNil(lint.readFrom?.tree(for: lint))
        XCTAssertEqual(lint.jsonValue(), try encodedAndParsed(lint))
    }

    /// Lines not in the encoder's form (written by hand or by an older version) read the same as before: the
    /// served JSON is the record's, with every documented field in order, not the line's own tree.
    func testAHandWrittenLineIsServedInTheRecordsOwnForm() throws {
        let line = Array(("{\"received_at\":\"2026-11-24T23:44:07Z\",\"seq\":3,\"connection_id\":1,\"stream_id\":1,"
            + "\"remote\":\"r\",\"method\":\"POST\",\"path\":\"/3/device/aa\",\"headers\":[],\"payload\":{\"aps\":{}},"
            + "\"payload_bytes\":10,\"auth\":{\"kind\":\"none\"},\"response\":{\"status\":200},\"extra\":true}").utf8)
        let record = try RecordedRequest(jsonLine: line)
        XCTAssertNil(record.readFrom?.tree(for: record))
        let served = record.jsonValue()
        XCTAssertEqual(served, try encodedAndParsed(record))
        XCTAssertEqual(served.objectMembers?.first?.key, "seq")
        XCTAssertEqual(served["received_at"], .string("2026-11-24T23:44:07.000Z"))
        XCTAssertEqual(served["duration_us"], .integer(0))
        XCTAssertNil(served["extra"])
    }

    func testValueRangesOfMembers() throws {
        let text = "{ \"a\" : \"x,}\\\"]\" , \"b\":[1,{\"c\":\"}\"}] ,\"d\":null,\"e\" : { \"f\" : [ ] }  }"
        let line = Array(text.utf8)
        func value(_ index: Int) -> String? {
            line.withUnsafeBufferPointer { bytes in
                RecordLineSource.valueRange(ofMember: index, in: bytes).map { String(decoding: bytes[$0], as: UTF8.self) }
            }
        }
        XCTAssertEqual(value(0), "\"x,}\\\"]\"")
        XCTAssertEqual(value(1), "[1,{\"c\":\"}\"}]")
        XCTAssertEqual(value(2), "null")
        XCTAssertEqual(value(3), "{ \"f\" : [ ] }")
        XCTAssertNil(value(4))
    }
}
