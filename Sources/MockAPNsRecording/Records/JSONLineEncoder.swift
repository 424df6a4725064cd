import APNsModel
import DeviceSimulation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import JSON

/// Writes a record as one line of JSON straight into bytes.
///
/// The JSON Lines file is written at the server's request rate, so this skips building a `JSONValue`
/// tree and a `String`: fields go into a byte buffer, and a payload that parsed as JSON is copied as
/// the sender's own bytes (with any raw line breaks, which JSON only allows as whitespace, turned into
/// spaces so the record stays on one line). This is the one place the record's JSON shape is written:
/// `RecordedRequest.jsonValue()` (the tree form) is this line parsed.
struct JSONLineEncoder {
    /// The lines encoded so far.
    var bytes: [UInt8] = []
    /// The line being encoded.
    private var line = JSONLineBuffer()

    init(capacity: Int = 1024) {
        bytes.reserveCapacity(capacity)
    }

    /// Appends `record`'s line; `seq` and `lint` replace the record's own number and findings when given.
    /// `payloadAsValue`: write a payload the record holds as a value from that value rather than as the body's text
    /// (for records made by hand, whose body need not be their payload's text; the server's always are).
    mutating func encode(_ record: borrowing RecordedRequest, seq: UInt64? = nil, lint: [LintFinding]? = nil,
                         payloadAsValue: Bool = false) {
        line.makeUnique()
        line.removeAll()
        defer { line.withUnsafeBytes { bytes.append(contentsOf: $0) } }
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
        if case .text(let text) = record.payloadSource {
            raw(",\"payload\":")
            oneLine(text)
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
        // Given findings are all of them (`lintFindings(for:)`); the record's own lack the connection's until read.
        var findings = lint ?? record.lint
        if lint == nil, let connectionFinding = record.connectionFinding { findings.append(connectionFinding) }
        for (index, finding) in findings.enumerated() {
            if index > 0 { raw(",") }
            raw("{\"id\":"); string(finding.id)
            raw(",\"severity\":"); string(finding.severity.rawValue)
            raw(",\"path\":"); string(finding.path)
            raw(",\"message\":"); string(finding.message); raw("}")
        }
        raw("],\"duration_us\":"); integer(record.durationMicros)
        if let relay = record.relay {
            // Only under `--relay`: lines without it read as before.
            raw(",\"relay\":{\"status\":"); integer(Int64(relay.status))
            raw(",\"reason\":"); optional(relay.reason)
            raw(",\"apns_id\":"); optional(relay.apnsID)
            raw(",\"apns_unique_id\":"); optional(relay.apnsUniqueID)
            raw(",\"timestamp\":"); optional(relay.timestamp)
            raw(",\"duration_us\":"); integer(relay.durationMicros)
            raw(",\"error\":"); optional(relay.error)
            raw(",\"skipped\":"); optional(relay.skipped)
            raw("}")
        }
        if let environment = record.environment {
            // Only under `--apple-hosts`: lines without it read as before.
            raw(",\"environment\":"); string(environment.rawValue)
        }
        if let fcm = record.fcm {
            // Only on pushes the FCM front door made: lines without it read as before.
            raw(",\"fcm\":{\"message_name\":"); string(fcm.messageName)
            raw(",\"project\":"); string(fcm.project)
            raw(",\"registration_token\":"); string(fcm.registrationToken); raw("}")
        }
        if let instance = record.instance {
            // Only on records read back from a shared store: lines without it read as before.
            raw(",\"instance\":"); string(instance)
        }
        raw("}\n")
    }

    /// Lint findings of the payloads this encoder has seen, by content: a sender fanning one payload out to many
    /// devices sends the same bytes again and again. The encoder's own, so the file writer's thread takes no lock
    /// per record.
    private var lintMemo = LintMemoTable()

    /// The findings for `record`'s line (its own when it has them).
    mutating func lintFindings(for record: borrowing RecordedRequest) -> [LintFinding] {
        record.lintFindings { key, lint in lintMemo.findings(for: key, lint: lint) }
    }

    // MARK: - Pieces

    /// The last header list encoded and its JSON: a sender repeats its header list from push to push unless it
    /// sends IDs of its own (compared by content; measured: ~3k instructions saved per record on fan-out traffic,
    /// ~0.5k lost per record when every list differs).
    private var lastHeaders: [HeaderField] = []
    private var lastHeadersJSON: [UInt8] = []

    /// `headers` as a JSON list of `[name, value]` pairs.
    private mutating func headers(_ headers: [HeaderField]) {
        if !headers.isEmpty && headers == lastHeaders {
            lastHeadersJSON.withUnsafeBytes { line.append($0) }
            return
        }
        let start = line.count
        raw("[")
        for (index, header) in headers.enumerated() {
            if index > 0 { raw(",") }
            raw("["); string(header.name); raw(","); string(header.value); raw("]")
        }
        raw("]")
        lastHeaders = headers
        lastHeadersJSON.removeAll(keepingCapacity: true)
        line.withUnsafeBytes { lastHeadersJSON.append(contentsOf: UnsafeRawBufferPointer(rebasing: $0[start...])) }
    }

    @inline(__always)
    private mutating func raw(_ text: StaticString) {
        line.append(text)
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
            let length = APNsIDGenerator.GeneratedID.textLength
            line.write(atMost: length + 2) { out in
                out[0] = UInt8(ascii: "\"")
                id.spell(into: UnsafeMutableBufferPointer(start: out + 1, count: length))
                out[length + 1] = UInt8(ascii: "\"")
                return length + 2
            }
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
    private mutating func string(_ text: String) {
        // In place: a native string's storage, a small string's stack copy (the generic helper in APNsModel
        // would not be specialised across the module boundary).
        let done: Void? = text.utf8.withContiguousStorageIfAvailable { quoted($0) }
        if done == nil {
            var text = text
            text.withUTF8 { quoted($0) }
        }
    }

    private mutating func quoted(_ utf8: UnsafeBufferPointer<UInt8>) {
        line.write(atMost: JSONEscaping.maximumQuotedCount(utf8Count: utf8.count)) { out in
            JSONEscaping.writeQuoted(utf8, to: out)
        }
    }

    /// A JSON text copied as is, except that raw line breaks (JSON whitespace) become spaces so the record
    /// stays on one line. Bodies without line breaks, the usual case, are copied in one piece.
    private mutating func oneLine(_ json: [UInt8]) {
        let breaks = json.withUnsafeBytes { raw in
            raw.isEmpty ? false : memchr(raw.baseAddress!, 0x0A, raw.count) != nil || memchr(raw.baseAddress!, 0x0D, raw.count) != nil
        }
        if !breaks {
            json.withUnsafeBytes { line.append($0) }
            return
        }
        for byte in json {
            line.append(byte == 0x0A || byte == 0x0D ? 0x20 : byte)
        }
    }

    /// The second `timestamp` last formatted, and its text up to the milliseconds
    /// (`2026-11-23T12:00:00.`): records arrive in bursts within one second, so most reuse it.
    private var formattedSecond: Int64 = -1
    private var formattedSecondText: [UInt8] = []

    /// `millis` as a JSON string in `Timestamp.iso8601(millis:)` form, formatting the date and time of day
    /// once per second.
    private mutating func timestamp(_ millis: Int64) {
        guard millis >= 0 else { string(Timestamp.iso8601(millis: millis)); return }
        let second = millis / 1000
        if second != formattedSecond {
            // The text of the whole second, without its "000Z".
            formattedSecondText = Array(Timestamp.iso8601(millis: second * 1000).utf8.dropLast(4))
            formattedSecond = second
        }
        let fraction = Int(millis % 1000)
        line.append(UInt8(ascii: "\""))
        formattedSecondText.withUnsafeBytes { line.append($0) }
        line.append(UInt8(ascii: "0") + UInt8(fraction / 100))
        line.append(UInt8(ascii: "0") + UInt8(fraction / 10 % 10))
        line.append(UInt8(ascii: "0") + UInt8(fraction % 10))
        line.append(UInt8(ascii: "Z"))
        line.append(UInt8(ascii: "\""))
    }

    /// `value` in decimal, written straight into the line: its digits are counted, then written last first.
    private mutating func integer(_ value: Int64) {
        let negative = value < 0
        let magnitude = value.magnitude
        var digits = 1
        var rest = magnitude
        while rest >= 10 {
            rest /= 10
            digits += 1
        }
        line.write(atMost: 21) { out in   // a sign and UInt64.max's 20 digits
            if negative { out[0] = UInt8(ascii: "-") }
            let length = digits + (negative ? 1 : 0)
            var index = length
            var rest = magnitude
            repeat {
                index -= 1
                out[index] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10)
                rest /= 10
            } while rest > 0
            return length
        }
    }

    private mutating func value(_ json: JSONValue) {
        switch json {
        case .null: raw("null")
        case .bool(let b): if b { raw("true") } else { raw("false") }
        case .integer(let i): integer(i)
        case .double(let d):
            if d.isFinite {
                var text = d.description
                text.withUTF8 { line.append(UnsafeRawBufferPointer($0)) }
            } else {
                raw("null")
            }
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

    /// `data` in standard base64 with padding.
    private mutating func base64(_ data: [UInt8]) {
        Base64.encode(data, alphabet: .standard, padded: true).withUnsafeBytes { line.append($0) }
    }
}
