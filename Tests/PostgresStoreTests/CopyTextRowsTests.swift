@testable import MockAPNsPostgres
import NIOCore
import XCTest

/// The COPY text rows escape exactly what PostgreSQL's text format needs, wherever in a value the bytes fall (the
/// writer checks eight bytes at a time): compared with a byte-by-byte reference on generated values.
final class CopyTextRowsTests: XCTestCase {
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
}
