import APNsModel
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A record's JSON line as read (from a record file or a store) and the tree it parsed to, kept with the record so
/// that serving it as JSON (``RecordedRequest/jsonValue()``) does not parse it a second time.
///
/// The tree is the record's JSON form only while the record still encodes to the same line: ``tree(for:)`` checks
/// that with one encoding and a byte comparison, so a record changed since it was read, or a line that was not in
/// the encoder's own form (written by hand, or by an older version), falls back to encoding and parsing as before.
/// A shared store renumbers its records and names their instance after reading them; those two fields are patched
/// into the tree rather than counted as changes.
final class RecordLineSource: Sendable {
    /// The line as read, without its newline.
    let line: [UInt8]
    /// `line` parsed.
    let parsed: JSONValue
    /// The record's `seq` when it was read from `line`.
    let seq: UInt64
    /// The record's `instance` when it was read from `line`.
    let instance: String?

    /// The source of a record read from `line`, which parsed to `parsed`, as `seq` and `instance` then were.
    init(line: [UInt8], parsed: JSONValue, seq: UInt64, instance: String?) {
        self.line = line
        self.parsed = parsed
        self.seq = seq
        self.instance = instance
    }

    /// `record`'s JSON form taken from the parsed line, or nil when `record` no longer encodes to that line.
    func tree(for record: RecordedRequest) -> JSONValue? {
        var asRead = record
        asRead.seq = seq
        asRead.instance = instance
        var encoder = JSONLineEncoder(capacity: line.count + 1)
        encoder.encode(asRead)
        let same = encoder.bytes.count == line.count + 1 && encoder.bytes.withUnsafeBytes { encoded in
            line.withUnsafeBytes { read in read.isEmpty || memcmp(encoded.baseAddress!, read.baseAddress!, read.count) == 0 }
        }
        guard same else { return nil }
        guard record.seq != seq || record.instance != instance, case .object(var members) = parsed else { return parsed }
        // The line is in the encoder's form: `seq` is its first member, and `instance`, when set, its last.
        if record.seq != seq { members[0].value = .integer(Int64(record.seq)) }
        if record.instance != instance {
            if instance != nil { members.removeLast() }
            if let now = record.instance { members.append(.init("instance", .string(now))) }
        }
        return .object(members)
    }

    /// The bytes of the value of member number `index` (from 0) of the JSON object in `line`, which `JSONValue.parse`
    /// accepted: how a record read from a line takes its payload's text as the line holds it, without encoding the
    /// parsed payload again.
    static func valueRange(ofMember index: Int, in line: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
        var depth = 0
        var member = -1
        var inString = false
        var escaped = false
        var start: Int?
        var lastSignificant = 0
        for position in line.indices {
            let byte = line[position]
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                    lastSignificant = position
                }
                continue
            }
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                continue
            case UInt8(ascii: ":") where depth == 1:
                member += 1
                if member == index { start = position + 1 }
                continue
            case UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"):
                if depth == 1, member == index, let start {
                    // The value ends at its last byte before this separator (whitespace is not part of it).
                    var first = start
                    while first < line.count, [0x20, 0x09, 0x0A, 0x0D].contains(line[first]) { first += 1 }
                    return first..<(lastSignificant + 1)
                }
                if byte != UInt8(ascii: ",") { depth -= 1 }
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
            case UInt8(ascii: "\""):
                inString = true
            default:
                break
            }
            lastSignificant = position
        }
        return nil
    }
}
