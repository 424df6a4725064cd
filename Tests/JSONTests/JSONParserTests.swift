import JSON
import XCTest

final class JSONParserTests: XCTestCase {
    private func parse(_ text: String) throws -> JSONValue { try JSONValue.parse(Array(text.utf8)) }

    func testScalarsKeepTheirKinds() throws {
        let cases: [(String, JSONValue)] = [
            ("null", .null), ("true", .bool(true)), ("false", .bool(false)),
            ("0", .integer(0)), ("-0", .integer(0)), ("42", .integer(42)), ("-17", .integer(-17)),
            ("1.0", .double(1.0)), ("1e2", .double(100)), ("1E-2", .double(0.01)), ("-2.5e+3", .double(-2500)),
            ("9223372036854775807", .integer(.max)), ("-9223372036854775808", .integer(.min)),
            ("9223372036854775808", .double(9223372036854775808.0)),
            (#""""#, .string("")), (#""héllo""#, .string("héllo")), ("  7  ", .integer(7)),
        ]
        for (text, expected) in cases {
            XCTAssertEqual(try parse(text), expected, text)
        }
    }

    func testObjectsKeepOrderAndDuplicates() throws {
        let value = try parse(#"{"b":1,"a":[true,null,{"x":"y"}],"b":2}"#)
        XCTAssertEqual(value.objectKeys, ["b", "a", "b"])
        XCTAssertEqual(value["b"], .integer(2), "the last duplicate wins through subscript")
        XCTAssertEqual(value.value(at: ["a"])?.arrayElements?.count, 3)
        XCTAssertEqual(try parse("{}"), .object([]))
        XCTAssertEqual(try parse("[]"), .array([]))
        XCTAssertEqual(try parse(" [ 1 , 2 ] "), .array([.integer(1), .integer(2)]))
    }

    func testEscapes() throws {
        XCTAssertEqual(try parse(#""a\"b\\c\/d\b\f\n\r\t""#), .string("a\"b\\c/d\u{8}\u{c}\n\r\t"))
        XCTAssertEqual(try parse(#""\u00e9\u4E2D""#), .string("é中"))
        XCTAssertEqual(try parse(#""\ud83d\ude00""#), .string("😀"))
        XCTAssertEqual(try parse(#""x\u0000y""#), .string("x\u{0}y"))
        XCTAssertEqual(try parse("\"raw 😀 é\""), .string("raw 😀 é"))
    }

    func testErrorsNameTheByteOffset() {
        let cases: [(String, Int)] = [
            ("", 0), ("   ", 3), ("{", 1), (#"{"a"}"#, 4), (#"{"a":1,}"#, 7), ("[1,]", 3), ("[1 2]", 3),
            (#"{"a":1} x"#, 8), ("tru", 0), ("nul", 0), ("01", 0), ("-", 1), ("1.", 2), ("1e", 2), ("+1", 0),
            (".5", 0), ("NaN", 0), ("1e400", 0), (#""abc"#, 0), ("\"a\u{1}b\"", 2), (#""\x""#, 1),
            (#""\u12""#, 1), (#""\ud800""#, 1), (#""\udc00""#, 1), (#""\ud800\u0041""#, 1), ("{'a':1}", 1),
            ("\u{FEFF}{}", 0), ("[1]]", 3), ("/*c*/{}", 0),
        ]
        for (text, offset) in cases {
            XCTAssertThrowsError(try parse(text), text) { error in
                XCTAssertEqual((error as? JSONParseError)?.offset, offset, "\(text): \(error)")
                XCTAssert("\(error)".contains("byte \(offset)"), "\(error)")
            }
        }
    }

    func testErrorsNameLineColumnAndTheTextAround() {
        let text = "{\n  \"aps\": {\n    \"alert\" \"Shipped\"\n  }\n}"
        XCTAssertThrowsError(try parse(text)) { error in
            guard let error = error as? JSONParseError else { return XCTFail("\(error)") }
            XCTAssertEqual(error.offset, 25)
            XCTAssertEqual(error.line, 3)
            XCTAssertEqual(error.column, 13)
            XCTAssertEqual(error.excerpt, "    \"alert\" ⟨here⟩\"Shipped\"")
            XCTAssert(error.description.hasPrefix("invalid JSON at line 3, column 13 (byte 25): "), error.description)
        }
        // On the first line, with nothing before it.
        XCTAssertThrowsError(try parse("x")) { error in
            XCTAssertEqual((error as? JSONParseError).map { [$0.line, $0.column] }, [1, 1])
        }
    }

    func testInvalidUTF8IsRejected() {
        let cases: [[UInt8]] = [
            [0x22, 0xFF, 0x22],                // never valid
            [0x22, 0xC0, 0x80, 0x22],          // overlong NUL
            [0x22, 0xE0, 0x80, 0x80, 0x22],    // overlong 3-byte
            [0x22, 0xED, 0xA0, 0x80, 0x22],    // UTF-16 surrogate
            [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22],  // above U+10FFFF
            [0x22, 0xC3, 0x22],                // truncated
            [0x22, 0x5C, 0x6E, 0xC3, 0x22],    // after an escape (slow path)
            [0x7B, 0xC3, 0xA9, 0x7D],          // non-ASCII outside a string
        ]
        for bytes in cases {
            XCTAssertThrowsError(try JSONValue.parse(bytes), "\(bytes)")
        }
        XCTAssertEqual(try JSONValue.parse([0x22, 0xC3, 0xA9, 0xF0, 0x9F, 0x98, 0x80, 0x22]), .string("é😀"))
    }

    func testDepthLimit() throws {
        let ok = String(repeating: "[", count: JSONValue.maximumDepth) + String(repeating: "]", count: JSONValue.maximumDepth)
        XCTAssertNoThrow(try parse(ok))
        let deep = String(repeating: "[", count: JSONValue.maximumDepth + 1) + String(repeating: "]", count: JSONValue.maximumDepth + 1)
        XCTAssertThrowsError(try parse(deep)) { XCTAssert("\($0)".contains("nesting")) }
        let deepObjects = String(repeating: #"{"a":"#, count: 10_000)
        XCTAssertThrowsError(try parse(deepObjects))
    }

    func testNonContiguousInputParses() throws {
        let bytes = Array(#"{"aps":{"badge":3}}"#.utf8)
        XCTAssertEqual(try JSONValue.parse(AnyCollection(bytes))["aps"]?["badge"], .integer(3))
        XCTAssertEqual(try JSONValue.parse(bytes[1..<6]), .string("aps"))
        XCTAssertEqual(try JSONValue.parse(#"[1.5]"#), .array([.double(1.5)]))
    }

    func testRoundTrips() throws {
        let texts = [
            #"{"aps":{"alert":{"title":"Hi","body":"There"},"badge":9,"sound":"default"},"id":"x"}"#,
            #"[null,true,false,0,-1,1.5,1e+20,"\"\\\n\u0001é😀",[],{}]"#,
            #"{"z":1,"a":2,"z":3}"#,
            #"{"n":-9223372036854775808,"d":0.1,"big":1.7e+308}"#,
        ]
        for text in texts {
            let value = try parse(text)
            XCTAssertEqual(value.jsonText(), text)
            XCTAssertEqual(try parse(value.jsonText()), value)
            XCTAssertEqual(try parse(value.prettyText()), value)
            XCTAssertEqual(try parse(value.jsonText(sortedKeys: true)).objectKeys?.sorted(), value.objectKeys?.sorted())
        }
    }

    func testLargePayloadIsFast() throws {
        var text = #"{"items":["#
        for i in 0..<20_000 { text += (i > 0 ? "," : "") + #"{"id":\#(i),"name":"item \#(i)","ok":true,"v":\#(i).5}"# }
        text += "]}"
        let value = try parse(text)
        XCTAssertEqual(value["items"]?.arrayElements?.count, 20_000)
    }
}
