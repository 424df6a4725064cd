import APNsModel
#if canImport(Glibc)
import Glibc
#endif

/// Writes a record as one line of JSON straight into bytes.
///
/// The JSON Lines file is written at the server's request rate, so this skips building a `JSONValue`
/// tree and a `String`: fields go into a byte buffer, and a payload that parsed as JSON is copied as
/// the sender's own bytes (with any raw line breaks, which JSON only allows as whitespace, turned into
/// spaces so the record stays on one line). `RecordedRequest.jsonValue()` gives the same fields as a tree.
struct JSONLineEncoder {
    var bytes: [UInt8] = []

    init(capacity: Int = 1024) {
        bytes.reserveCapacity(capacity)
    }

    /// Appends `record`'s line; `seq` and `lint` replace the record's own number and findings when given.
    mutating func encode(_ record: borrowing RecordedRequest, seq: UInt64? = nil, lint: [LintFinding]? = nil) {
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
            if record.body.isEmpty {
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

    /// Lint findings by body storage (with the header list they were computed with): lint depends on the body
    /// and the headers alone (and on the record being a device push).
    private var lintMemo = StorageMemo<UInt8, (headers: [HeaderField], payloadBytes: Int, findings: [LintFinding])>()

    /// `record.lintFindings()`, remembered for records that share their body's and headers' storage.
    mutating func lintFindings(for record: borrowing RecordedRequest) -> [LintFinding] {
        guard record.lint.isEmpty,
              RecordedRequest.isLinted(method: record.method, deviceToken: record.deviceToken, body: record.body) else {
            return record.lint
        }
        if let known = lintMemo.value(for: record.body), known.payloadBytes == record.payloadBytes,
           known.headers.sharesStorage(with: record.headers) {
            return known.findings
        }
        let findings = record.lintFindings()
        lintMemo.remember((record.headers, record.payloadBytes, findings), for: record.body)
        return findings
    }

    // MARK: - Pieces

    /// Header lists already encoded, by storage, with their JSON: a connection's repeated list is one array.
    private var headersMemo = StorageMemo<HeaderField, [UInt8]>()

    /// `headers` as a JSON list of `[name, value]` pairs.
    private mutating func headers(_ headers: [HeaderField]) {
        if let known = headersMemo.value(for: headers) {
            bytes.append(contentsOf: known)
            return
        }
        let start = bytes.count
        raw("[")
        for (index, header) in headers.enumerated() {
            if index > 0 { raw(",") }
            raw("["); string(header.name); raw(","); string(header.value); raw("]")
        }
        raw("]")
        headersMemo.remember(Array(bytes[start...]), for: headers)
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

    private static let hex: [UInt8] = Array("0123456789abcdef".utf8)

    /// `text` as a JSON string. Runs of bytes that need no escape (all of a typical field) are copied in
    /// one `append(contentsOf:)`; only `"`, `\\` and control characters are written one by one.
    mutating func string(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in
            guard Self.needsEscape(utf8) else {
                bytes.append(contentsOf: utf8)
                return
            }
            var runStart = 0
            for index in utf8.indices {
                let byte = utf8[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
                escape(byte)
                runStart = index + 1
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// Whether any byte of `utf8` is `"`, `\\` or a control character, tested eight bytes at a time with the
    /// classic SWAR tests: `(w - 0x20…) & ~w & 0x80…` is non-zero exactly when some byte of `w` is below 0x20,
    /// and the same test on `w ^ c…` with 0x01 finds a byte equal to `c`.
    static func needsEscape(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highBits: UInt64 = 0x8080_8080_8080_8080
        func hasByteBelow(_ word: UInt64, _ limit: UInt8) -> Bool {
            (word &- ones &* UInt64(limit)) & ~word & highBits != 0
        }
        func hasByte(_ word: UInt64, _ byte: UInt8) -> Bool { hasByteBelow(word ^ (ones &* UInt64(byte)), 1) }

        guard let base = utf8.baseAddress else { return false }
        let raw = UnsafeRawPointer(base)
        var offset = 0
        while offset + 8 <= utf8.count {
            let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            if hasByteBelow(word, 0x20) || hasByte(word, UInt8(ascii: "\"")) || hasByte(word, UInt8(ascii: "\\")) {
                return true
            }
            offset += 8
        }
        while offset < utf8.count {
            let byte = utf8[offset]
            if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { return true }
            offset += 1
        }
        return false
    }

    /// The escape sequence for one byte that JSON does not allow raw in a string.
    private mutating func escape(_ byte: UInt8) {
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(0x5C); bytes.append(byte)
        case 0x0A: bytes.append(0x5C); bytes.append(UInt8(ascii: "n"))
        case 0x0D: bytes.append(0x5C); bytes.append(UInt8(ascii: "r"))
        case 0x09: bytes.append(0x5C); bytes.append(UInt8(ascii: "t"))
        default:
            bytes.append(contentsOf: [0x5C, UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                                      Self.hex[Int(byte >> 4)], Self.hex[Int(byte & 0xF)]])
        }
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

    mutating func integer(_ value: Int64) {
        if value == 0 { bytes.append(UInt8(ascii: "0")); return }
        var magnitude = value.magnitude
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            while magnitude > 0 {
                buffer[count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                count += 1
            }
            if value < 0 { bytes.append(UInt8(ascii: "-")) }
            for index in stride(from: count - 1, through: 0, by: -1) { bytes.append(buffer[index]) }
        }
    }

    mutating func value(_ json: JSONValue) {
        switch json {
        case .null: raw("null")
        case .bool(let b): if b { raw("true") } else { raw("false") }
        case .integer(let i): integer(i)
        case .double(let d): bytes.append(contentsOf: Array("\(d)".utf8))
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
