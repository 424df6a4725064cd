@testable import APNsModel
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
