/// A strict RFC 8259 JSON parser producing `JSONValue`.
///
/// Why not Foundation's `JSONSerialization`: it returns `NSDictionary` (key order lost), turns `true` into
/// `1` and blurs `1` and `1.0`, all of which APNs payload rules and faithful recordings need. `JSONDecoder`
/// needs a schema. So we parse ourselves, straight from the bytes.
///
/// Strictness: one value, optionally surrounded by whitespace, nothing after it (no BOM, no comments, no
/// trailing commas); strings must be valid UTF-8 and escapes valid (lone surrogates are refused); numbers
/// follow the RFC grammar and must be finite. Integers without fraction or exponent that fit `Int64` become
/// `.integer`, other numbers `.double`. Nesting deeper than `maximumDepth` is refused so hostile input
/// cannot exhaust the stack. Duplicate object keys are kept, in order, as `JSONValue.object` does.
extension JSONValue {
    /// The deepest nesting of arrays and objects `parse` accepts.
    public static let maximumDepth = 512

    /// Parses one JSON text. Throws a `JSONParseError` naming the byte offset of the first problem.
    public static func parse(_ bytes: some Collection<UInt8>) throws(JSONParseError) -> JSONValue {
        let outcome: Result<JSONValue, JSONParseError>? = bytes.withContiguousStorageIfAvailable { buffer in
            JSONParser.run(buffer)
        }
        let result = outcome ?? Array(bytes).withUnsafeBufferPointer { JSONParser.run($0) }
        return try result.get()
    }

    /// Whether `bytes` are one JSON text `parse` accepts, answered by the allocation-free validator
    /// (``JSONValidator``, held to `parse`'s verdict by tests and by the JSON fuzz target).
    public static func isValid(_ bytes: some Collection<UInt8>) -> Bool {
        bytes.withContiguousStorageIfAvailable { JSONValidator.isValid($0) }
            ?? Array(bytes).withUnsafeBufferPointer { JSONValidator.isValid($0) }
    }

    /// Whether `bytes` are one JSON object `parse` accepts (the validator, as ``isValid(_:)``).
    public static func isObject(_ bytes: some Collection<UInt8>) -> Bool {
        bytes.withContiguousStorageIfAvailable { JSONValidator.isObject($0) }
            ?? Array(bytes).withUnsafeBufferPointer { JSONValidator.isObject($0) }
    }

    /// Parses the UTF-8 of `text` as one JSON text.
    public static func parse(_ text: String) throws(JSONParseError) -> JSONValue {
        try parse(Array(text.utf8))
    }
}

/// The parser's cursor over a contiguous buffer. It never outlives the `withUnsafeBufferPointer` call that
/// made it.
struct JSONParser {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    /// The members of the objects being parsed (innermost last), and the elements of the arrays: each finished
    /// object or array is allocated once, at its final size, instead of growing member by member.
    private var members = JSONScratchStack<JSONValue.JSONMember>()
    private var elements = JSONScratchStack<JSONValue>()

    private init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// Parses `bytes`.
    static func run(_ bytes: UnsafeBufferPointer<UInt8>) -> Result<JSONValue, JSONParseError> {
        var parser = JSONParser(bytes)
        defer {
            parser.members.release()
            parser.elements.release()
        }
        do {
            return .success(try parser.document())
        } catch {
            return .failure(error)
        }
    }

    // MARK: Structure

    private mutating func document() throws(JSONParseError) -> JSONValue {
        skipWhitespace()
        guard index < bytes.count else {
            throw fail(bytes.isEmpty ? "the input is empty" : "expected a value, found only whitespace")
        }
        let value = try parseValue(depth: 0)
        skipWhitespace()
        guard index == bytes.count else { throw fail("unexpected \(describe(bytes[index])) after the JSON value") }
        return value
    }

    private mutating func parseValue(depth: Int) throws(JSONParseError) -> JSONValue {
        guard index < bytes.count else { throw fail("unexpected end of input, expected a value") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)
        case UInt8(ascii: "["): return try parseArray(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw fail("unexpected \(describe(bytes[index])), expected a value")
        }
    }

    private mutating func parseObject(depth: Int) throws(JSONParseError) -> JSONValue {
        guard depth <= JSONValue.maximumDepth else { throw fail("nesting deeper than \(JSONValue.maximumDepth) levels") }
        index += 1  // {
        let first = members.count
        skipWhitespace()
        if peek() == UInt8(ascii: "}") { index += 1; return .object([]) }
        while true {
            skipWhitespace()
            guard peek() == UInt8(ascii: "\"") else { throw fail("expected a string key in an object") }
            let key = try parseString()
            skipWhitespace()
            guard peek() == UInt8(ascii: ":") else { throw fail("expected ':' after an object key") }
            index += 1
            skipWhitespace()
            let value = try parseValue(depth: depth)
            members.push(JSONValue.JSONMember(key, value))
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"): index += 1; return .object(members.pop(from: first))
            default: throw fail("expected ',' or '}' in an object")
            }
        }
    }

    private mutating func parseArray(depth: Int) throws(JSONParseError) -> JSONValue {
        guard depth <= JSONValue.maximumDepth else { throw fail("nesting deeper than \(JSONValue.maximumDepth) levels") }
        index += 1  // [
        let first = elements.count
        skipWhitespace()
        if peek() == UInt8(ascii: "]") { index += 1; return .array([]) }
        while true {
            skipWhitespace()
            let element = try parseValue(depth: depth)
            elements.push(element)
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"): index += 1; return .array(elements.pop(from: first))
            default: throw fail("expected ',' or ']' in an array")
            }
        }
    }

    private mutating func literal(_ word: StaticString) throws(JSONParseError) {
        let start = index
        let count = word.utf8CodeUnitCount
        guard bytes.count - index >= count else { throw fail("invalid literal, expected \(word)", at: start) }
        for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] {
            throw fail("invalid literal, expected \(word)", at: start)
        }
        index += count
    }

    // MARK: Strings

    private mutating func parseString() throws(JSONParseError) -> String {
        index += 1  // opening quote
        let start = index
        // Fast path: no escapes. Validate UTF-8 in place and decode the slice once.
        while index < bytes.count {
            skipPlainASCII()
            // The word that stopped the skip holds a byte needing attention: step to it one byte at a time.
            while index < bytes.count, Self.isPlainASCII(bytes[index]) { index += 1 }
            guard index < bytes.count else { break }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
                index += 1
                return text
            }
            if byte == UInt8(ascii: "\\") { return try parseEscapedString(from: start) }
            if byte < 0x20 { throw fail("unescaped control character in a string") }
            try skipUTF8Sequence()
        }
        throw fail("unterminated string", at: start - 1)
    }

    /// A string byte that needs no attention: ASCII from 0x20 up, except `"` and `\\`.
    private static func isPlainASCII(_ byte: UInt8) -> Bool {
        byte >= 0x20 && byte < 0x80 && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\")
    }

    /// Skips, eight bytes at a time, string bytes that need no attention: ASCII from 0x20 up, except `"` and
    /// `\\` (the bytes the string loop would only step over one by one). Stops at the first word holding
    /// anything else, which the loop then reads byte by byte.
    @inline(__always)
    private mutating func skipPlainASCII() {
        guard let base = bytes.baseAddress else { return }
        let raw = UnsafeRawPointer(base)
        while index + 8 <= bytes.count {
            let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            if word & 0x8080_8080_8080_8080 != 0 || JSONBytes.stringSpecialMarks(word) != 0 { return }
            index += 8
        }
    }

    /// The slow path, once a backslash is seen: copy into a scratch buffer, resolving escapes.
    private mutating func parseEscapedString(from start: Int) throws(JSONParseError) -> String {
        var scratch: [UInt8] = Array(UnsafeBufferPointer(rebasing: bytes[start..<index]))
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return String(decoding: scratch, as: UTF8.self)
            case UInt8(ascii: "\\"):
                try appendEscape(into: &scratch)
            case 0..<0x20:
                throw fail("unescaped control character in a string")
            case 0x20..<0x80:
                scratch.append(byte)
                index += 1
            default:
                let sequenceStart = index
                try skipUTF8Sequence()
                scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[sequenceStart..<index]))
            }
        }
        throw fail("unterminated string", at: start - 1)
    }

    private mutating func appendEscape(into scratch: inout [UInt8]) throws(JSONParseError) {
        let escapeStart = index
        index += 1  // backslash
        guard index < bytes.count else { throw fail("unterminated escape", at: escapeStart) }
        let code = bytes[index]
        index += 1
        switch code {
        case UInt8(ascii: "\""): scratch.append(0x22)
        case UInt8(ascii: "\\"): scratch.append(0x5C)
        case UInt8(ascii: "/"): scratch.append(0x2F)
        case UInt8(ascii: "b"): scratch.append(0x08)
        case UInt8(ascii: "f"): scratch.append(0x0C)
        case UInt8(ascii: "n"): scratch.append(0x0A)
        case UInt8(ascii: "r"): scratch.append(0x0D)
        case UInt8(ascii: "t"): scratch.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try hex4(escapeStart)
            if (0xD800...0xDBFF).contains(scalar) {
                guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
                else { throw fail("high surrogate \\u\(hex(scalar)) not followed by a low surrogate", at: escapeStart) }
                index += 2
                let low = try hex4(index - 2)
                guard (0xDC00...0xDFFF).contains(low) else {
                    throw fail("high surrogate \\u\(hex(scalar)) not followed by a low surrogate", at: escapeStart)
                }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(scalar) {
                throw fail("lone low surrogate \\u\(hex(scalar))", at: escapeStart)
            }
            // `scalar` is now a valid Unicode scalar value.
            scratch.append(contentsOf: Unicode.Scalar(scalar).map { Array(String($0).utf8) } ?? [])
        default:
            throw fail("invalid escape \\\(describeRaw(code))", at: escapeStart)
        }
    }

    private mutating func hex4(_ escapeStart: Int) throws(JSONParseError) -> UInt32 {
        guard bytes.count - index >= 4 else { throw fail("\\u escape needs four hex digits", at: escapeStart) }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw fail("\\u escape needs four hex digits", at: escapeStart)
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    /// Advances over one well-formed multi-byte UTF-8 sequence starting at `index` (RFC 3629 table 3-7).
    private mutating func skipUTF8Sequence() throws(JSONParseError) {
        let lead = bytes[index]
        let count: Int
        var secondRange: ClosedRange<UInt8> = 0x80...0xBF
        switch lead {
        case 0xC2...0xDF: count = 2
        case 0xE0: count = 3; secondRange = 0xA0...0xBF
        case 0xE1...0xEC, 0xEE...0xEF: count = 3
        case 0xED: count = 3; secondRange = 0x80...0x9F
        case 0xF0: count = 4; secondRange = 0x90...0xBF
        case 0xF1...0xF3: count = 4
        case 0xF4: count = 4; secondRange = 0x80...0x8F
        default: throw fail("invalid UTF-8 byte 0x\(hex(UInt32(lead)))")
        }
        guard bytes.count - index >= count else { throw fail("truncated UTF-8 sequence") }
        guard secondRange.contains(bytes[index + 1]) else { throw fail("invalid UTF-8 sequence") }
        for offset in 2..<max(count, 2) where !(0x80...0xBF).contains(bytes[index + offset]) {
            throw fail("invalid UTF-8 sequence")
        }
        index += count
    }

    // MARK: Numbers

    private mutating func parseNumber() throws(JSONParseError) -> JSONValue {
        let start = index
        var isInteger = true
        if peek() == UInt8(ascii: "-") { index += 1 }
        guard let first = peek(), JSONBytes.isDecimalDigit(first) else { throw fail("expected a digit", at: index) }
        if first == UInt8(ascii: "0") {
            index += 1
            if let next = peek(), JSONBytes.isDecimalDigit(next) { throw fail("a number cannot have a leading zero", at: start) }
        } else {
            skipDigits()
        }
        if peek() == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard let digit = peek(), JSONBytes.isDecimalDigit(digit) else { throw fail("expected a digit after '.'") }
            skipDigits()
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { index += 1 }
            guard let digit = peek(), JSONBytes.isDecimalDigit(digit) else { throw fail("expected a digit in the exponent") }
            skipDigits()
        }
        let slice = UnsafeBufferPointer(rebasing: bytes[start..<index])
        if isInteger, let integer = Self.int64(slice) { return .integer(integer) }
        guard let double = Double(String(decoding: slice, as: UTF8.self)), double.isFinite else {
            throw fail("number out of range", at: start)
        }
        return .double(double)
    }

    /// The integer spelled by `slice` (optional `-`, digits), or `nil` when it overflows `Int64`.
    private static func int64(_ slice: UnsafeBufferPointer<UInt8>) -> Int64? {
        var negative = false
        var result: Int64 = 0
        for byte in slice {
            if byte == UInt8(ascii: "-") { negative = true; continue }
            let digit = Int64(byte - UInt8(ascii: "0"))
            let (shifted, o1) = result.multipliedReportingOverflow(by: 10)
            // Accumulate negatively so Int64.min fits.
            let (next, o2) = shifted.subtractingReportingOverflow(digit)
            if o1 || o2 { return nil }
            result = next
        }
        if negative { return result }
        let (positive, overflow) = Int64(0).subtractingReportingOverflow(result)
        return overflow ? nil : positive
    }

    private mutating func skipDigits() {
        while index < bytes.count, JSONBytes.isDecimalDigit(bytes[index]) { index += 1 }
    }

    // MARK: Helpers

    private func peek() -> UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private func fail(_ message: String, at offset: Int? = nil) -> JSONParseError {
        JSONParseError(offset: offset ?? index, message: message, in: bytes)
    }

    private func describe(_ byte: UInt8) -> String {
        (0x21..<0x7F).contains(byte) ? "'\(describeRaw(byte))'" : "byte 0x\(hex(UInt32(byte)))"
    }

    private func describeRaw(_ byte: UInt8) -> String { String(UnicodeScalar(byte)) }

    private func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, (value > 0xFF ? 4 : 2) - digits.count)) + digits
    }
}
