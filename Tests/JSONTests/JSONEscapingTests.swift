import Support
import JSON
import XCTest

/// `JSONEscaping` against a one-scalar-at-a-time reference escaper and against the parser, on seeded random
/// strings full of what needs escaping and what must pass through untouched.
final class JSONEscapingTests: XCTestCase {
    /// The reference: RFC 8259's required escapes, short forms where JSON has them, lowercase `\u00XX` otherwise.
    private func referenceQuoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{8}": out += "\\b"
            case "\u{C}": out += "\\f"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    private let pieces: [String] = [
        "a", "Z", "0", " ", "~", "\u{7F}", "\"", "\\", "/", "\n", "\r", "\t", "\u{8}", "\u{C}", "\u{0}", "\u{1}",
        "\u{1F}", "é", "中", "😀", "\u{2028}", "\u{2029}", "\u{FEFF}", "plain ascii run ", "0123456789abcdef",
    ]

    private func randomString(_ g: inout SplitMix64) -> String {
        // Lengths past 8 and 16 so that the eight-bytes-at-a-time check sees whole words, and tails of each length.
        (0..<Int.random(in: 0...40, using: &g)).map { _ in pieces.randomElement(using: &g)! }.joined()
    }

    func testRandomStringsMatchTheReferenceAndParseBack() throws {
        var g = SplitMix64(seed: 13)
        for _ in 0..<5000 {
            let text = randomString(&g)
            let quoted = JSONEscaping.quoted(text)
            XCTAssertEqual(quoted, referenceQuoted(text))
            XCTAssertEqual(try JSONValue.parse(quoted), .string(text))

            var appended: [UInt8] = [0x41]
            JSONEscaping.append(text, to: &appended)
            XCTAssertEqual(appended, [0x41] + Array(referenceQuoted(text).utf8))

            var utf8 = Array(text.utf8)
            let bound = JSONEscaping.maximumQuotedCount(utf8Count: utf8.count)
            var out = [UInt8](repeating: 0xEE, count: bound + 1)
            let written = utf8.withUnsafeMutableBufferPointer { source in
                out.withUnsafeMutableBufferPointer { JSONEscaping.writeQuoted(UnsafeBufferPointer(source), to: $0.baseAddress!) }
            }
            XCTAssertLessThanOrEqual(written, bound)
            XCTAssertEqual(Array(out[..<written]), Array(referenceQuoted(text).utf8))
            XCTAssertEqual(out[bound], 0xEE, "wrote past the bound")
        }
    }

    func testTheBoundHoldsForTheWorstCase() {
        let worst = String(repeating: "\u{1}", count: 33)
        XCTAssertEqual(Array(JSONEscaping.quoted(worst).utf8).count, JSONEscaping.maximumQuotedCount(utf8Count: 33))
        XCTAssertEqual(JSONEscaping.quoted(""), "\"\"")
    }

    func testNonNativeStringsAreEscapedAlike() {
        // A substring's copy and a string built from scalars take `withUTF8`'s other paths; the text is the same.
        let text = "x\"y\u{1}\u{2028}" + String(repeating: "z", count: 20)
        let built = String(String.UnicodeScalarView(text.unicodeScalars))
        let sliced = String(("__" + text).dropFirst(2))
        XCTAssertEqual(JSONEscaping.quoted(built), referenceQuoted(text))
        XCTAssertEqual(JSONEscaping.quoted(sliced), referenceQuoted(text))
    }
}
