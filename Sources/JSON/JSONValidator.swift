/// Whether bytes are one JSON text that `JSONValue.parse` accepts, answered without building anything.
///
/// Every push body is checked to be a JSON object before it is accepted, at the server's request rate, and the
/// body is kept as bytes (parsed only when someone reads it, ``PayloadSource``). This is the parser's grammar as
/// plain loops over the bytes that answer yes or no. `JSONValidatorTests` holds it to `parse`'s verdict on the
/// parser's corpus and on generated and mutated texts, and the JSON fuzz target on whatever libFuzzer finds.
package enum JSONValidator {
    /// Whether `bytes` are exactly one JSON object (with surrounding whitespace) that `parse` accepts.
    package static func isObject(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var cursor = Cursor(bytes: bytes)
        cursor.skipWhitespace()
        guard cursor.peek == UInt8(ascii: "{"), cursor.value(depth: 0) else { return false }
        cursor.skipWhitespace()
        return cursor.index == bytes.count
    }

    /// Whether `bytes` are one JSON text (any value) that `parse` accepts.
    package static func isValid(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var cursor = Cursor(bytes: bytes)
        cursor.skipWhitespace()
        guard cursor.value(depth: 0) else { return false }
        cursor.skipWhitespace()
        return cursor.index == bytes.count
    }

    private struct Cursor {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0

        /// The byte at `index`, or 0 at the end (0 is never valid where a peeked byte matters).
        var peek: UInt8 { index < bytes.count ? bytes[index] : 0 }

        mutating func skipWhitespace() {
            while index < bytes.count {
                switch bytes[index] {
                case 0x20, 0x09, 0x0A, 0x0D: index += 1
                default: return
                }
            }
        }

        mutating func value(depth: Int) -> Bool {
            switch peek {
            case UInt8(ascii: "{"): return object(depth: depth + 1)
            case UInt8(ascii: "["): return array(depth: depth + 1)
            case UInt8(ascii: "\""): return string()
            case UInt8(ascii: "t"): return literal("true")
            case UInt8(ascii: "f"): return literal("false")
            case UInt8(ascii: "n"): return literal("null")
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return number()
            default: return false
            }
        }

        mutating func object(depth: Int) -> Bool {
            guard depth <= JSONValue.maximumDepth else { return false }
            index += 1  // {
            skipWhitespace()
            if peek == UInt8(ascii: "}") { index += 1; return true }
            while true {
                skipWhitespace()
                guard peek == UInt8(ascii: "\""), string() else { return false }
                skipWhitespace()
                guard peek == UInt8(ascii: ":") else { return false }
                index += 1
                skipWhitespace()
                guard value(depth: depth) else { return false }
                skipWhitespace()
                switch peek {
                case UInt8(ascii: ","): index += 1
                case UInt8(ascii: "}"): index += 1; return true
                default: return false
                }
            }
        }

        mutating func array(depth: Int) -> Bool {
            guard depth <= JSONValue.maximumDepth else { return false }
            index += 1  // [
            skipWhitespace()
            if peek == UInt8(ascii: "]") { index += 1; return true }
            while true {
                skipWhitespace()
                guard value(depth: depth) else { return false }
                skipWhitespace()
                switch peek {
                case UInt8(ascii: ","): index += 1
                case UInt8(ascii: "]"): index += 1; return true
                default: return false
                }
            }
        }

        mutating func literal(_ word: StaticString) -> Bool {
            let count = word.utf8CodeUnitCount
            guard bytes.count - index >= count else { return false }
            for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] { return false }
            index += count
            return true
        }

        /// A string from its opening quote. Eight bytes are read at a time; a word with no byte that needs
        /// attention (a quote, a backslash, a control byte or a non-ASCII byte) is skipped whole, and otherwise
        /// the cursor jumps straight to the first such byte. Escapes and multi-byte UTF-8 are then read one by
        /// one; only the last few bytes of the buffer go one at a time.
        @inline(__always)
        mutating func string() -> Bool {
            index += 1  // "
            while true {
                skipPlainBytes()
                guard index < bytes.count else { return false }
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    index += 1
                    return true
                }
                if byte == UInt8(ascii: "\\") {
                    guard escape() else { return false }
                } else if byte < 0x20 {
                    return false
                } else if byte < 0x80 {
                    index += 1  // a plain byte among the buffer's last seven
                } else {
                    guard utf8Sequence() else { return false }
                }
            }
        }

        /// Advances over string bytes that need no attention (ASCII from 0x20 up except `"` and `\\`), eight at a
        /// time, stopping on the first byte that does (or where fewer than eight bytes remain).
        /// Non-ASCII bytes are marked by their own high bit, the rest by `JSONBytes.stringSpecialMarks`, whose
        /// lowest mark is exact, so the lowest mark of the union is the first byte needing attention.
        @inline(__always)
        mutating func skipPlainBytes() {
            guard let base = bytes.baseAddress else { return }
            let raw = UnsafeRawPointer(base)
            let count = bytes.count
            while count - index >= 8 {
                let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
                let marks = (word & 0x8080_8080_8080_8080) | JSONBytes.stringSpecialMarks(word)
                if marks != 0 {
                    index += marks.trailingZeroBitCount &>> 3
                    return
                }
                index += 8
            }
        }

        /// One escape from its backslash; `\u` surrogates must pair (a lone low one, or a high one without its low
        /// one, is refused, as `parse` does).
        mutating func escape() -> Bool {
            index += 1  // backslash
            guard index < bytes.count else { return false }
            let code = bytes[index]
            index += 1
            switch code {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                 UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                return true
            case UInt8(ascii: "u"):
                guard let scalar = hex4() else { return false }
                if (0xD800...0xDBFF).contains(scalar) {
                    guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
                    else { return false }
                    index += 2
                    guard let low = hex4(), (0xDC00...0xDFFF).contains(low) else { return false }
                    return true
                }
                return !(0xDC00...0xDFFF).contains(scalar)
            default:
                return false
            }
        }

        mutating func hex4() -> UInt32? {
            guard bytes.count - index >= 4 else { return nil }
            var value: UInt32 = 0
            for _ in 0..<4 {
                let byte = bytes[index]
                let digit: UInt8
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
                default: return nil
                }
                value = value << 4 | UInt32(digit)
                index += 1
            }
            return value
        }

        /// One well-formed multi-byte UTF-8 sequence (RFC 3629 table 3-7).
        mutating func utf8Sequence() -> Bool {
            let lead = bytes[index]
            let count: Int
            var secondLow: UInt8 = 0x80
            var secondHigh: UInt8 = 0xBF
            switch lead {
            case 0xC2...0xDF: count = 2
            case 0xE0: count = 3; secondLow = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: count = 3
            case 0xED: count = 3; secondHigh = 0x9F
            case 0xF0: count = 4; secondLow = 0x90
            case 0xF1...0xF3: count = 4
            case 0xF4: count = 4; secondHigh = 0x8F
            default: return false
            }
            guard bytes.count - index >= count else { return false }
            let second = bytes[index + 1]
            guard second >= secondLow && second <= secondHigh else { return false }
            var offset = 2
            while offset < count {
                guard bytes[index + offset] & 0xC0 == 0x80 else { return false }
                offset += 1
            }
            index += count
            return true
        }

        /// A number by the RFC grammar; one that is not a short integer must also be finite as a `Double`, as
        /// `parse` requires (`1e400` is refused).
        mutating func number() -> Bool {
            let start = index
            var simple = true
            if peek == UInt8(ascii: "-") { index += 1 }
            guard JSONBytes.isDecimalDigit(peek) else { return false }
            if peek == UInt8(ascii: "0") {
                index += 1
                if JSONBytes.isDecimalDigit(peek) { return false }
            } else {
                skipDigits()
            }
            if peek == UInt8(ascii: ".") {
                simple = false
                index += 1
                guard JSONBytes.isDecimalDigit(peek) else { return false }
                skipDigits()
            }
            if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
                simple = false
                index += 1
                if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { index += 1 }
                guard JSONBytes.isDecimalDigit(peek) else { return false }
                skipDigits()
            }
            // Up to 18 digits always fits Int64; longer integers and anything else go the parser's way.
            if simple && index - start <= 18 { return true }
            return JSONParser.run(UnsafeBufferPointer(rebasing: bytes[start..<index])).isSuccess
        }

        mutating func skipDigits() {
            while index < bytes.count, JSONBytes.isDecimalDigit(bytes[index]) { index += 1 }
        }
    }
}

extension Result {
    fileprivate var isSuccess: Bool {
        if case .success = self { return true }
        return false
    }
}
