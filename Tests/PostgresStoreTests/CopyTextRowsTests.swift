@testable import MockAPNsPostgres
import NIOCore
import TestSupport
import XCTest

/// The COPY text rows escape exactly what PostgreSQL's text format needs, wherever in a value the bytes fall (the
/// writer checks eight bytes at a time): compared with a byte-by-byte reference on generated values.
final class CopyTextRowsTests: LeakCheckedTestCase {
    private static func reference(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case "\t": out += "\\t"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    func testEscapingMatchesTheByteByByteReference() {
        var generator = SystemRandomNumberGenerator()
        let alphabet: [Character] = ["a", "b", "\\", "\t", "\n", "\r", "\\", "é", "🚀", "{", "\"", " ", "N", "\u{5C}"]
        var reused = ByteBuffer()
        for length in 0..<80 {
            for _ in 0..<20 {
                let value = String((0..<length).map { _ in alphabet.randomElement(using: &generator)! })
                var rows = CopyTextRows(reusing: reused, capacity: 64)
                rows.field(value)
                rows.field(Optional<String>.none)
                rows.field(Int64(length))
                rows.endRow()
                XCTAssertEqual(String(buffer: rows.buffer), Self.reference(value) + "\t\\N\t\(length)\n", "value \(value.debugDescription)")
                reused = rows.buffer
            }
        }
    }

    func testIntegersAreWrittenInDecimal() {
        var rows = CopyTextRows(capacity: 64)
        for value in [Int64.min, -1, 0, 7, 10, 1_795_442_400_000, Int64.max] { rows.field(value) }
        rows.endRow()
        XCTAssertEqual(String(buffer: rows.buffer), "-9223372036854775808\t-1\t0\t7\t10\t1795442400000\t9223372036854775807\n")
    }
}
