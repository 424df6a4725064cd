import APNsModel
import XCTest

/// Parses JSON text written in a test into a `JSONValue` (keys in order, integers apart from fractions).
///
/// A small test-only reader: the tests write payloads as JSON text for readability, and must not depend on
/// the production parser's error behaviour. It traps on malformed text, which is a bug in the test.
func json(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> JSONValue {
    var reader = JSONTextReader(Array(text.utf8))
    guard let value = reader.document() else {
        XCTFail("malformed test JSON: \(text)", file: file, line: line)
        return .null
    }
    return value
}

private struct JSONTextReader {
    let bytes: [UInt8]
    var index = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    mutating func document() -> JSONValue? {
        guard let value = value() else { return nil }
        skipSpace()
        return index == bytes.count ? value : nil
    }

    mutating func skipSpace() {
        while index < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[index]) { index += 1 }
    }

    mutating func value() -> JSONValue? {
        skipSpace()
        guard index < bytes.count else { return nil }
        switch bytes[index] {
        case UInt8(ascii: "{"): return object()
        case UInt8(ascii: "["): return array()
        case UInt8(ascii: "\""): return string().map(JSONValue.string)
        case UInt8(ascii: "t"): return literal("true", .bool(true))
        case UInt8(ascii: "f"): return literal("false", .bool(false))
        case UInt8(ascii: "n"): return literal("null", .null)
        default: return number()
        }
    }

    mutating func literal(_ word: String, _ result: JSONValue) -> JSONValue? {
        let w = Array(word.utf8)
        guard index + w.count <= bytes.count, Array(bytes[index..<index + w.count]) == w else { return nil }
        index += w.count
        return result
    }

    mutating func number() -> JSONValue? {
        let start = index
        while index < bytes.count, "+-0123456789.eE".utf8.contains(bytes[index]) { index += 1 }
        guard let text = String(bytes: bytes[start..<index], encoding: .utf8), !text.isEmpty else { return nil }
        if let i = Int64(text) { return .integer(i) }
        return Double(text).map(JSONValue.double)
    }

    mutating func string() -> String? {
        index += 1
        var out: [UInt8] = []
        while index < bytes.count {
            let b = bytes[index]
            index += 1
            if b == UInt8(ascii: "\"") { return String(decoding: out, as: UTF8.self) }
            if b == UInt8(ascii: "\\"), index < bytes.count {
                let e = bytes[index]
                index += 1
                switch e {
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"):
                    guard index + 4 <= bytes.count,
                        let code = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16),
                        let scalar = Unicode.Scalar(code)
                    else { return nil }
                    index += 4
                    out.append(contentsOf: Array(String(Character(scalar)).utf8))
                default: out.append(e)
                }
            } else {
                out.append(b)
            }
        }
        return nil
    }

    mutating func array() -> JSONValue? {
        index += 1
        var elements: [JSONValue] = []
        skipSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array(elements)
        }
        while true {
            guard let v = value() else { return nil }
            elements.append(v)
            skipSpace()
            guard index < bytes.count else { return nil }
            index += 1
            if bytes[index - 1] == UInt8(ascii: "]") { return .array(elements) }
            guard bytes[index - 1] == UInt8(ascii: ",") else { return nil }
        }
    }

    mutating func object() -> JSONValue? {
        index += 1
        var members: [JSONValue.JSONMember] = []
        skipSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .object(members)
        }
        while true {
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\""), let key = string() else { return nil }
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return nil }
            index += 1
            guard let v = value() else { return nil }
            members.append(.init(key, v))
            skipSpace()
            guard index < bytes.count else { return nil }
            index += 1
            if bytes[index - 1] == UInt8(ascii: "}") { return .object(members) }
            guard bytes[index - 1] == UInt8(ascii: ",") else { return nil }
        }
    }
}
