@testable import JSON
import XCTest

/// `JSONValidator` must give exactly `JSONValue.parse`'s verdict (valid or not, object or not): on edge cases of
/// every grammar rule, and on many texts made by cutting and mutating valid ones.
final class JSONValidatorTests: XCTestCase {
    private func check(_ bytes: [UInt8], _ label: @autoclosure () -> String, file: StaticString = #filePath, line: UInt = #line) {
        let parsed = try? JSONValue.parse(bytes)
        let valid = bytes.withUnsafeBufferPointer { JSONValidator.isValid($0) }
        let object = bytes.withUnsafeBufferPointer { JSONValidator.isObject($0) }
        XCTAssertEqual(valid, parsed != nil, "valid: \(label())", file: file, line: line)
        var parsedObject = false
        if case .object? = parsed { parsedObject = true }
        XCTAssertEqual(object, parsedObject, "object: \(label())", file: file, line: line)
    }

    private let seeds: [String] = [
        #"{"aps":{"alert":{"title":"Hello","body":"Parcel 4711 left"},"badge":1,"sound":"default"},"id":"x"}"#,
        #"{"a":[1,-2,3.5,1e3,-0.0,0,true,false,null,"s",{"k":[]},[]],"b":"\u00e9\ud83d\ude00\n\t\"\\\/","c":{}}"#,
        #"  {"emoji":"😀","cjk":"漢字","e":"é"}  "#,
        #"[1,2,3]"#, #""text""#, "12345", "-0.5e-7", "true", "null",
        #"{"big":123456789012345678901234567890,"small":-9223372036854775808,"edge":9223372036854775807}"#,
    ]

    func testEdgeCasesAgreeWithParse() {
        let cases = [
            "", " ", "{", "}", "{}", "{ }", "[]", "[", "{\"a\"}", "{\"a\":}", "{\"a\":1,}", "[1,]", "[,1]", "{,}",
            "01", "-", "-01", "1.", ".5", "1e", "1e+", "1E-2", "1e400", "-1e400", "1.5e308", "2e308",
            "\"\\u12\"", "\"\\ud800\"", "\"\\udc00\"", "\"\\ud800\\u0041\"", "\"\\ud800\\udc00\"", "\"\\x\"",
            "\"a\tb\"", "\"unterminated", "tru", "truex", "nul", "{\"a\":1}x", "{\"a\":1} {}", "\u{FEFF}{}",
            "99999999999999999999", "-99999999999999999999", "123456789012345678", "1234567890123456789",
            String(repeating: "[", count: 600) + String(repeating: "]", count: 600),
            String(repeating: "{\"a\":", count: 511) + "1" + String(repeating: "}", count: 511),
            String(repeating: "{\"a\":", count: 512) + "1" + String(repeating: "}", count: 512),
            String(repeating: "{\"a\":", count: 513) + "1" + String(repeating: "}", count: 513),
        ]
        for text in cases + seeds { check(Array(text.utf8), text.debugDescription) }
        // Raw bytes that are not UTF-8, or not shortest form, inside and outside strings.
        for bad: [UInt8] in [[0x22, 0xC0, 0x80, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22], [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22],
                             [0x22, 0xE2, 0x82, 0x22], [0x22, 0xFF, 0x22], [0x22, 0xF0, 0x9F, 0x98, 0x80, 0x22], [0x7B, 0x80, 0x7D]] {
            check(bad, "\(bad)")
        }
    }

    /// Strings of every length up to 40 with one byte that needs attention (quote, backslash and escapes, control,
    /// non-ASCII lead and continuation bytes, invalid UTF-8, surrogate escapes) at every position: the validator
    /// reads strings eight bytes at a time, so each offset from a word boundary and from the buffer's end matters.
    func testStringsWithSpecialBytesAtEveryOffset() {
        let specials: [[UInt8]] = [
            [0x22], [0x5C], [0x5C, 0x22], [0x5C, 0x6E], [0x5C, 0x78], Array(#"\u00e9"#.utf8), Array(#"\ud83d\ude00"#.utf8),
            Array(#"\ud800"#.utf8), Array(#"\udc00"#.utf8), Array(#"\ud800\u0041"#.utf8), [0x00], [0x09], [0x1F], [0x20], [0x7F],
            [0xC3, 0xA9], [0xC3], [0xA9], [0xE2, 0x82, 0xAC], [0xE2, 0x82], [0xED, 0xA0, 0x80], [0xF0, 0x9F, 0x98, 0x80],
            [0xF4, 0x90, 0x80, 0x80], [0xC0, 0x80], [0xFF],
        ]
        for length in 0...40 {
            for position in 0...length {
                for special in specials {
                    var inner = [UInt8](repeating: UInt8(ascii: "x"), count: length)
                    inner.insert(contentsOf: special, at: position)
                    let string = [0x22] + inner + [0x22]
                    check(string, "string \(string)")
                    check(Array(#"{"k":"#.utf8) + string + [UInt8(ascii: "}")], "member \(string)")
                    check(Array(#"{"#.utf8) + string + Array(#":1}"#.utf8), "key \(string)")
                    check(Array(string.dropLast()), "unterminated \(string)")
                }
            }
        }
    }

    /// Random documents built from the grammar (nesting, escapes, numbers, non-ASCII), each also cut short.
    func testGeneratedDocumentsAgreeWithParse() {
        var generator = SystemRandomNumberGenerator()
        let stringPieces = ["a", "plain text ", "\\n", "\\\"", "\\u00e9", "\\ud83d\\ude00", "é", "漢字", "😀", "\\ud800", "\t"]
        let numbers = ["0", "-0", "1", "-12", "3.25", "1e5", "-1.5E-3", "123456789012345678", "1234567890123456789012", "1e400", "01", "1.", "-"]
        func string() -> String {
            "\"" + (0..<Int.random(in: 0...4, using: &generator)).map { _ in stringPieces.randomElement(using: &generator)! }.joined() + "\""
        }
        func value(_ depth: Int) -> String {
            switch Int.random(in: 0..<(depth > 6 ? 4 : 7), using: &generator) {
            case 0: return string()
            case 1: return numbers.randomElement(using: &generator)!
            case 2: return ["true", "false", "null"].randomElement(using: &generator)!
            case 3: return "[]"
            case 4, 5:
                // Keys are strings, now and then another value (which `parse` refuses).
                let members = (0..<Int.random(in: 0...3, using: &generator)).map { _ in
                    (Int.random(in: 0..<10, using: &generator) == 0 ? value(7) : string()) + ":" + value(depth + 1)
                }
                return "{" + members.joined(separator: Bool.random(using: &generator) ? "," : " , ") + "}"
            default:
                return "[" + (0..<Int.random(in: 0...3, using: &generator)).map { _ in value(depth + 1) }.joined(separator: ",") + "]"
            }
        }
        for _ in 0..<3000 {
            let text = Array(value(0).utf8)
            check(text, String(decoding: text, as: UTF8.self))
            let cut = Int.random(in: 0...text.count, using: &generator)
            check(Array(text[..<cut]), "cut \(cut) of \(String(decoding: text, as: UTF8.self))")
        }
    }

    /// Every prefix of each seed, and each seed with one byte replaced by an interesting byte: thousands of texts
    /// near the valid ones, where a validator that drifts from the parser would first disagree.
    func testCutAndMutatedTextsAgreeWithParse() {
        let interesting: [UInt8] = Array("{}[]\",:\\ 0123456789-+.eEtfnrua/".utf8) + [0x00, 0x09, 0x0A, 0x1F, 0x7F, 0x80, 0xC3, 0xE2, 0xF0, 0xFF]
        var generator = SystemRandomNumberGenerator()
        for seed in seeds {
            let bytes = Array(seed.utf8)
            for cut in 0...bytes.count { check(Array(bytes[..<cut]), "prefix \(cut) of \(seed)") }
            for position in bytes.indices {
                for replacement in interesting {
                    var mutated = bytes
                    mutated[position] = replacement
                    check(mutated, "\(seed) with byte \(position) = \(replacement)")
                }
            }
            for _ in 0..<200 {
                var mutated = bytes
                mutated.insert(interesting.randomElement(using: &generator)!, at: Int.random(in: 0...bytes.count, using: &generator))
                check(mutated, "\(mutated)")
            }
        }
    }
}
