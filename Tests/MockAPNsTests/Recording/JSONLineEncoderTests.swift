import APNsModel
import DeviceSimulation
import JSON
import XCTest
@testable import MockAPNs
@testable import MockAPNsRecording
import MockTestSupport

/// The record line's text, byte for byte, against a reference built field by field from `JSONEscaping.quoted` and
/// `JSONValue.jsonText` (the encoder writes through its own buffer; these must agree).
final class JSONLineEncoderTests: LeakCheckedTestCase {
    private func record(text: String, number: Int64, payload: JSONValue?, body: [UInt8]) -> RecordedRequest {
        RecordedRequest(
            seq: number.magnitude % UInt64(Int64.max), receivedAtMillis: 1_795_000_000_007,
            connectionID: number.magnitude % UInt64(Int64.max),
            streamID: 1, remote: text, method: "POST", path: "/3/device/" + text, deviceToken: text,
            headers: [HeaderField(name: "apns-topic", value: text), HeaderField(name: "x-\(number)", value: "")],
            body: body, payload: payload, payloadBytes: body.count,
            auth: .init(kind: "token", teamID: text, keyID: nil, issuedAt: number, topics: [text, "t"]),
            response: .init(status: 400, reason: text, apnsID: text, apnsUniqueID: nil, timestamp: number),
            faults: [text], lint: [LintFinding(id: "x", severity: .warning, message: text, path: "aps." + text)],
            durationMicros: number)
    }

    private func reference(_ r: RecordedRequest, payloadText: String) -> String {
        func q(_ s: String?) -> String { s.map(JSONEscaping.quoted) ?? "null" }
        let headers = r.headers.map { "[\(q($0.name)),\(q($0.value))]" }.joined(separator: ",")
        let lint = r.lint.map { "{\"id\":\(q($0.id)),\"severity\":\(q($0.severity.rawValue)),\"path\":\(q($0.path)),\"message\":\(q($0.message))}" }
        return "{\"seq\":\(r.seq),\"received_at\":\"2026-11-18T11:06:40.007Z\",\"connection_id\":\(r.connectionID)"
            + ",\"stream_id\":\(r.streamID),\"remote\":\(q(r.remote)),\"method\":\(q(r.method)),\"path\":\(q(r.path))"
            + ",\"device_token\":\(q(r.deviceToken)),\"headers\":[\(headers)],\"payload\":\(payloadText)"
            + ",\"payload_bytes\":\(r.payloadBytes),\"auth\":{\"kind\":\(q(r.auth.kind)),\"team_id\":\(q(r.auth.teamID))"
            + ",\"key_id\":\(q(r.auth.keyID)),\"issued_at\":\(r.auth.issuedAt.map(String.init) ?? "null")"
            + ",\"topics\":[\(r.auth.topics.map(q).joined(separator: ","))]},\"response\":{\"status\":\(r.response.status)"
            + ",\"reason\":\(q(r.response.reason)),\"apns_id\":\(q(r.response.apnsID)),\"apns_unique_id\":null"
            + ",\"timestamp\":\(r.response.timestamp.map(String.init) ?? "null")},\"faults\":[\(r.faults.map(q).joined(separator: ","))]"
            + ",\"lint\":[\(lint.joined(separator: ","))],\"duration_us\":\(r.durationMicros)}\n"
    }

    func testLinesMatchTheReferenceForAwkwardTextAndNumbers() {
        let texts = ["", "a", "quote\"back\\slash", "ctl\u{0}\u{1F}\n\r\t\u{8}\u{C}", "é中😀\u{2028}", String(repeating: "long ", count: 40)]
        let numbers: [Int64] = [0, 1, 9, 10, 99, 100, -1, -10, 4_294_967_296, .max, .min]
        for text in texts {
            for number in numbers {
                let payload: JSONValue = .object([.init("n", .integer(number)), .init(text, .string(text)),
                                                  .init("d", .double(0.5)), .init("a", .array([.bool(true), .null]))])
                // A payload held as a value (written from the value) and one read from the sender's body (copied).
                let asValue = record(text: text, number: number, payload: payload, body: [])
                XCTAssertEqual(String(decoding: asValue.jsonLine(), as: UTF8.self),
                               reference(asValue, payloadText: payload.jsonText()))
                let body = Array("{\"n\": \(number),\n \"t\": \(JSONEscaping.quoted(text))}".utf8)
                let asBody = record(text: text, number: number, payload: try? JSONValue.parse(body), body: body)
                XCTAssertEqual(String(decoding: asBody.jsonLine(), as: UTF8.self),
                               reference(asBody, payloadText: "{\"n\": \(number),  \"t\": \(JSONEscaping.quoted(text))}"))
            }
        }
    }

    /// One encoder writing records in turn (as the file writer does) writes each as it would alone: a repeated
    /// header list (written from the encoder's memory of the last one) and a changed one alike.
    func testAnEncoderWritesEachRecordAsAloneWhateverCameBefore() {
        let payload: JSONValue = .object([.init("aps", .object([]))])
        let first = record(text: "a\"b", number: 1, payload: payload, body: [])
        var same = record(text: "a\"b", number: 2, payload: payload, body: [])
        same.path = "/3/device/other"
        let other = record(text: "c\u{1}d", number: 3, payload: payload, body: [])
        var encoder = JSONLineEncoder()
        for r in [first, same, same, other, first] { encoder.encode(r) }
        XCTAssertEqual(encoder.bytes, first.jsonLine() + same.jsonLine() + same.jsonLine() + other.jsonLine() + first.jsonLine())
    }
}
