import APNsModel
#if canImport(Glibc)
import Glibc
#endif

/// Writes a record as one line of JSON straight into bytes.
///
/// The JSON Lines file is written at the server's request rate, so this skips building a `JSONValue`
/// tree and a `String`: fields go into a byte buffer, and a payload that parsed as JSON is copied as
/// the sender's own bytes (with any raw line breaks, which JSON only allows as whitespace, turned into
/// spaces so the record stays on one line). This is the one place the record's JSON shape is written:
/// `RecordedRequest.jsonValue()` (the tree form) is this line parsed.
struct JSONLineEncoder {
    var bytes: [UInt8] = []

    init(capacity: Int = 1024) {
        bytes.reserveCapacity(capacity)
    }

    /// Appends `record`'s line; `seq` and `lint` replace the record's own number and findings when given.
    /// `payloadAsValue`: write a payload the record holds as a value from that value rather than as the body's text
    /// (for records made by hand, whose body need not be their payload's text; the server's always are).
    mutating func encode(_ record: borrowing RecordedRequest, seq: UInt64? = nil, lint: [LintFinding]? = nil,
                         payloadAsValue: Bool = false) {
        raw("{\"seq\":"); integer(Int64(seq ?? record.seq))
        raw(",\"received_at\":"); timestamp(record.receivedAtMillis)
        raw(",\"connection_id\":"); integer(Int64(record.connectionID))
        raw(",\"stream_id\":"); integer(Int64(record.streamID))
        raw(",\"remote\":"); string(record.remote)
        raw(",\"method\":"); string(record.method)
        raw(",\"path\":"); string(record.path)
        raw(",\"device_token\":"); optional(record.deviceToken)
        raw(",\"headers\":")
        headers(record.headers)
        if case .body = record.payloadSource {
            raw(",\"payload\":")
            oneLine(record.body)
        } else if case .value(let payload?) = record.payloadSource {
            raw(",\"payload\":")
            // A record's payload is always parsed from its body, so the body is that JSON's own text.
            if record.body.isEmpty || payloadAsValue {
                value(payload)
            } else {
                oneLine(record.body)
            }
        } else {
            raw(",\"payload_base64\":\"")
            base64(record.body)
            raw("\"")
        }
        raw(",\"payload_bytes\":"); integer(Int64(record.payloadBytes))
        raw(",\"auth\":{\"kind\":"); string(record.auth.kind)
        raw(",\"team_id\":"); optional(record.auth.teamID)
        raw(",\"key_id\":"); optional(record.auth.keyID)
        raw(",\"issued_at\":"); optional(record.auth.issuedAt)
        raw(",\"topics\":["); list(record.auth.topics); raw("]}")
        raw(",\"response\":{\"status\":"); integer(Int64(record.response.status))
        raw(",\"reason\":"); optional(record.response.reason)
        raw(",\"apns_id\":"); id(record.response.apnsIDSource)
        raw(",\"apns_unique_id\":"); id(record.response.apnsUniqueIDSource)
        raw(",\"timestamp\":"); optional(record.response.timestamp)
        raw("},\"faults\":["); list(record.faults); raw("]")
        raw(",\"lint\":[")
        for (index, finding) in (lint ?? record.lint).enumerated() {
            if index > 0 { raw(",") }
            raw("{\"id\":"); string(finding.id)
            raw(",\"severity\":"); string(finding.severity.rawValue)
            raw(",\"path\":"); string(finding.path)
            raw(",\"message\":"); string(finding.message); raw("}")
        }
        raw("],\"duration_us\":"); integer(record.durationMicros)
        raw("}\n")
    }

    /// The last linted record's inputs (body, push type, priority, topic, size) and its findings.
    private var lastLint: (body: [UInt8], pushType: String?, priority: String?, topic: String?, payloadBytes: Int,
                           findings: [LintFinding])?

    /// The findings for `record`'s line: `record.lintFindings()` (which remembers them by payload content in a
    /// table every writer shares), or the last record's when it has the same inputs, compared by content: a
    /// sender fanning one payload out to many devices sends the same bytes again and again.
    mutating func lintFindings(for record: borrowing RecordedRequest) -> [LintFinding] {
        guard record.lint.isEmpty,
              RecordedRequest.isLinted(method: record.method, deviceToken: record.deviceToken, body: record.body) else {
            return record.lint
        }
        let pushType = record.header("apns-push-type"), priority = record.header("apns-priority")
        let topic = record.header("apns-topic")
        if let last = lastLint, last.payloadBytes == record.payloadBytes, last.pushType == pushType,
           last.priority == priority, last.topic == topic, Self.sameBytes(last.body, record.body) {
            return last.findings
        }
        let findings = record.lintFindings()
        lastLint = (record.body, pushType, priority, topic, record.payloadBytes, findings)
        return findings
    }

    /// Whether two byte arrays hold the same bytes (one `memcmp`).
    private static func sameBytes(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        return a.withUnsafeBytes { x in
            b.withUnsafeBytes { y in x.isEmpty || memcmp(x.baseAddress!, y.baseAddress!, x.count) == 0 }
        }
    }

    // MARK: - Pieces

    /// The last header list encoded and its JSON: records of one sender repeat most of their header lists
    /// (compared by content; strings the transport reused compare by their storage first, cheaply).
    private var lastHeaders: [HeaderField] = []
    private var lastHeadersJSON: [UInt8] = []

    /// `headers` as a JSON list of `[name, value]` pairs.
    private mutating func headers(_ headers: [HeaderField]) {
        if !headers.isEmpty && headers == lastHeaders {
            bytes.append(contentsOf: lastHeadersJSON)
            return
        }
        let start = bytes.count
        defer {
            lastHeaders = headers
            lastHeadersJSON = Array(bytes[start...])
        }
        raw("[")
        for (index, header) in headers.enumerated() {
            if index > 0 { raw(",") }
            raw("["); string(header.name); raw(","); string(header.value); raw("]")
        }
        raw("]")
    }

    private mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    private mutating func optional(_ text: String?) {
        if let text { string(text) } else { raw("null") }
    }

    /// An ID as a JSON string (or `null`); a generated one is spelled straight into the buffer.
    private mutating func id(_ source: RecordedRequest.Response.IDSource) {
        switch source {
        case .text(let text):
            optional(text)
        case .generated(let id):
            bytes.append(UInt8(ascii: "\""))
            let start = bytes.count
            bytes.append(contentsOf: repeatElement(0, count: APNsIDGenerator.GeneratedID.textLength))
            bytes.withUnsafeMutableBufferPointer { id.spell(into: UnsafeMutableBufferPointer(rebasing: $0[start...])) }
            bytes.append(UInt8(ascii: "\""))
        }
    }

    private mutating func optional(_ number: Int64?) {
        if let number { integer(number) } else { raw("null") }
    }

    private mutating func list(_ items: [String]) {
        for (index, item) in items.enumerated() {
            if index > 0 { raw(",") }
            string(item)
        }
    }

    /// `text` as a JSON string (`JSONEscaping`: every writer in the package escapes alike).
    mutating func string(_ text: String) {
        JSONEscaping.append(text, to: &bytes)
    }

    /// A JSON text copied as is, except that raw line breaks (JSON whitespace) become spaces so the record
    /// stays on one line. Bodies without line breaks, the usual case, are copied in one piece.
    private mutating func oneLine(_ json: [UInt8]) {
        let breaks = json.withUnsafeBytes { raw in
            raw.isEmpty ? false : memchr(raw.baseAddress!, 0x0A, raw.count) != nil || memchr(raw.baseAddress!, 0x0D, raw.count) != nil
        }
        if !breaks {
            bytes.append(contentsOf: json)
            return
        }
        for byte in json {
            bytes.append(byte == 0x0A || byte == 0x0D ? 0x20 : byte)
        }
    }

    /// The second `timestamp` last formatted, and its text up to the milliseconds
    /// (`2026-11-23T12:00:00.`): records arrive in bursts within one second, so most reuse it.
    private var formattedSecond: Int64 = -1
    private var formattedSecondText: [UInt8] = []

    /// `millis` as a JSON string in `Timestamp.iso8601(millis:)` form, formatting the date and time of day
    /// once per second.
    mutating func timestamp(_ millis: Int64) {
        guard millis >= 0 else { string(Timestamp.iso8601(millis: millis)); return }
        let second = millis / 1000
        if second != formattedSecond {
            // The text of the whole second, without its "000Z".
            formattedSecondText = Array(Timestamp.iso8601(millis: second * 1000).utf8.dropLast(4))
            formattedSecond = second
        }
        let fraction = Int(millis % 1000)
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: formattedSecondText)
        bytes.append(UInt8(ascii: "0") + UInt8(fraction / 100))
        bytes.append(UInt8(ascii: "0") + UInt8(fraction / 10 % 10))
        bytes.append(UInt8(ascii: "0") + UInt8(fraction % 10))
        bytes.append(UInt8(ascii: "Z"))
        bytes.append(UInt8(ascii: "\""))
    }

    /// `value` in decimal: the digits are formed on the stack, last first, and appended in one piece.
    mutating func integer(_ value: Int64) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in   // UInt64.max has 20 digits
            var index = digits.count
            repeat {
                index -= 1
                digits[index] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: digits[index...]))
        }
    }

    mutating func value(_ json: JSONValue) {
        switch json {
        case .null: raw("null")
        case .bool(let b): if b { raw("true") } else { raw("false") }
        case .integer(let i): integer(i)
        case .double(let d): if d.isFinite { bytes.append(contentsOf: Array(d.description.utf8)) } else { raw("null") }
        case .string(let s): string(s)
        case .array(let items):
            raw("[")
            for (index, item) in items.enumerated() {
                if index > 0 { raw(",") }
                value(item)
            }
            raw("]")
        case .object(let members):
            raw("{")
            for (index, member) in members.enumerated() {
                if index > 0 { raw(",") }
                string(member.key)
                raw(":")
                value(member.value)
            }
            raw("}")
        }
    }

    private static let base64Alphabet: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    private mutating func base64(_ data: [UInt8]) {
        var index = 0
        while index + 3 <= data.count {
            let n = UInt32(data[index]) << 16 | UInt32(data[index + 1]) << 8 | UInt32(data[index + 2])
            for shift in [18, 12, 6, 0] { bytes.append(Self.base64Alphabet[Int((n >> UInt32(shift)) & 63)]) }
            index += 3
        }
        let rest = data.count - index
        if rest == 1 {
            let n = UInt32(data[index]) << 16
            bytes.append(Self.base64Alphabet[Int((n >> 18) & 63)])
            bytes.append(Self.base64Alphabet[Int((n >> 12) & 63)])
            raw("==")
        } else if rest == 2 {
            let n = UInt32(data[index]) << 16 | UInt32(data[index + 1]) << 8
            bytes.append(Self.base64Alphabet[Int((n >> 18) & 63)])
            bytes.append(Self.base64Alphabet[Int((n >> 12) & 63)])
            bytes.append(Self.base64Alphabet[Int((n >> 6) & 63)])
            raw("=")
        }
    }
}
