import JSON
import XCTest

final class JSONTextTests: XCTestCase {
    func testCompactText() {
        let value: JSONValue = .object([
            .init("b", .array([.integer(1), .double(2.0), .null, .bool(true)])),
            .init("a", .string("q\"\\\n\t\u{1}é")),
        ])
        XCTAssertEqual(value.jsonText(), #"{"b":[1,2.0,null,true],"a":"q\"\\\n\t\u0001é"}"#)
        XCTAssertEqual(value.jsonText(sortedKeys: true), #"{"a":"q\"\\\n\t\u0001é","b":[1,2.0,null,true]}"#)
    }

    func testSortedKeysRecurseAndKeepDuplicateOrder() {
        let value: JSONValue = .object([
            .init("z", .object([.init("y", .integer(1)), .init("x", .integer(2))])),
            .init("a", .integer(1)), .init("a", .integer(2)),
        ])
        XCTAssertEqual(value.jsonText(sortedKeys: true), #"{"a":1,"a":2,"z":{"x":2,"y":1}}"#)
    }

    func testPrettyText() {
        let value: JSONValue = .object([
            .init("aps", .object([.init("alert", .string("Hi")), .init("badge", .integer(1))])),
            .init("list", .array([.integer(1), .array([])])),
            .init("empty", .object([])),
        ])
        XCTAssertEqual(value.prettyText(), """
        {
          "aps": {
            "alert": "Hi",
            "badge": 1
          },
          "list": [
            1,
            []
          ],
          "empty": {}
        }
        """)
    }

    func testControlCharactersAreEscaped() {
        XCTAssertEqual(JSONValue.string("\u{0}\u{1f}\u{7f}\u{8}\u{c}\r").jsonText(), #""\u0000\u001f\#u{7f}\b\f\r""#)
    }
}
