import XCTest
@testable import MockAPNs
@testable import MockAPNsRecording
import MockTestSupport

/// The dashboard's search grammar: what each text parses to, and the sentence for each mistake.
final class SearchQueryParserTests: LeakCheckedTestCase {
    func testParsesEachFormOfTerm() throws {
        let cases: [(String, [SearchTerm])] = [
            ("", []),
            ("   ", []),
            ("topic:com.example.app", [SearchTerm(.topic, "com.example.app")]),
            ("TOPIC:com.example.app", [SearchTerm(.topic, "com.example.app")]),
            ("token:ab12 type:alert", [SearchTerm(.token, "ab12"), SearchTerm(.type, "alert")]),
            ("-status:200", [SearchTerm(.status, "200", negated: true)]),
            ("status:4xx reason:BadDeviceToken", [SearchTerm(.status, "4xx"), SearchTerm(.reason, "BadDeviceToken")]),
            (#"title:"Order shipped""#, [SearchTerm(.title, "Order shipped")]),
            (#"body:"a b"  has:inAppSymbol"#, [SearchTerm(.body, "a b"), SearchTerm(.has, "inAppSymbol")]),
            ("shipped", [SearchTerm(.text, "shipped")]),
            ("-shipped", [SearchTerm(.text, "shipped", negated: true)]),
            (#""a:b""#, [SearchTerm(.text, "a:b")]),
            (#""-x""#, [SearchTerm(.text, "-x")]),
            ("-", [SearchTerm(.text, "-")]),
            ("topic:a:b", [SearchTerm(.topic, "a:b")]),
        ]
        for (text, expected) in cases {
            XCTAssertEqual(try SearchQuery(parsing: text).terms, expected, "parsing \(text)")
        }
    }

    func testRejectsMistakesWithASentence() {
        let cases: [(String, String)] = [
            ("bogus:1", "Unknown search field 'bogus:'"),
            ("topic:", "'topic:' needs a value"),
            ("status:ok", "'status:ok' is not a status"),
            ("status:20", "'status:20' is not a status"),
            ("status:6xx", "'status:6xx' is not a status"),
            (#"title:"open"#, "unterminated quote"),
            (#""""#, "empty quoted term"),
        ]
        for (text, fragment) in cases {
            XCTAssertThrowsError(try SearchQuery(parsing: text), text) { error in
                XCTAssertTrue("\(error)".contains(fragment), "\(text): \(error)")
            }
        }
    }
}
