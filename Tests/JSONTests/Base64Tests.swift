import JSON
import Foundation
import XCTest

final class Base64Tests: XCTestCase {
    private func encoded(_ text: String, _ alphabet: Base64.Alphabet = .standard, padded: Bool = true) -> String {
        String(decoding: Base64.encode(Array(text.utf8), alphabet: alphabet, padded: padded), as: UTF8.self)
    }

    /// RFC 4648 §10's test vectors.
    func testTheRFCVectors() {
        let vectors = ["": "", "f": "Zg==", "fo": "Zm8=", "foo": "Zm9v", "foob": "Zm9vYg==", "fooba": "Zm9vYmE=",
                       "foobar": "Zm9vYmFy"]
        for (text, base64) in vectors {
            XCTAssertEqual(encoded(text), base64, text)
            XCTAssertEqual(encoded(text, .url, padded: false), base64.replacingOccurrences(of: "=", with: ""), text)
        }
    }

    func testTheAlphabetsDifferInTheirLastTwoCharacters() {
        let bytes: [UInt8] = [0xFB, 0xEF, 0xFF]
        XCTAssertEqual(String(decoding: Base64.encode(bytes, alphabet: .standard, padded: true), as: UTF8.self), "++//")
        XCTAssertEqual(String(decoding: Base64.encode(bytes, alphabet: .url, padded: false), as: UTF8.self), "--__")
    }

    func testEveryByteValueMatchesFoundation() {
        let bytes = (0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ $0 / 7) }
        for count in [0, 1, 2, 3, 254, 255, 256, 1000] {
            let slice = Array(bytes.prefix(count))
            XCTAssertEqual(String(decoding: Base64.encode(slice, alphabet: .standard, padded: true), as: UTF8.self),
                           Data(slice).base64EncodedString(), "\(count) bytes")
        }
    }

    private func decoded(_ text: String, _ alphabet: Base64.Alphabet = .standard, padding: Base64.Padding = .required) -> [UInt8]? {
        Base64.decode(Array(text.utf8), alphabet: alphabet, padding: padding)
    }

    func testDecodingTheRFCVectorsInBothAlphabets() {
        let vectors = ["": "", "f": "Zg==", "fo": "Zm8=", "foo": "Zm9v", "foob": "Zm9vYg==", "fooba": "Zm9vYmE=",
                       "foobar": "Zm9vYmFy"]
        for (text, base64) in vectors {
            XCTAssertEqual(decoded(base64), Array(text.utf8), base64)
            XCTAssertEqual(decoded(base64, .url, padding: .optional), Array(text.utf8), "padded base64url \(base64)")
            let unpadded = base64.replacingOccurrences(of: "=", with: "")
            XCTAssertEqual(decoded(unpadded, .url, padding: .optional), Array(text.utf8), unpadded)
        }
        XCTAssertEqual(decoded("++//"), [0xFB, 0xEF, 0xFF])
        XCTAssertEqual(decoded("--__", .url, padding: .optional), [0xFB, 0xEF, 0xFF])
        XCTAssertEqual(decoded("-_-_", .url, padding: .optional), [0xFB, 0xFF, 0xBF])
    }

    func testEveryLengthRoundTripsInBothAlphabets() {
        for length in 0..<70 {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
            let standard = Base64.encode(bytes, alphabet: .standard, padded: true)
            XCTAssertEqual(Base64.decode(standard, alphabet: .standard, padding: .required), bytes, "length \(length)")
            for padded in [false, true] {
                let url = Base64.encode(bytes, alphabet: .url, padded: padded)
                XCTAssertEqual(Base64.decode(url, alphabet: .url, padding: .optional), bytes, "length \(length), padded \(padded)")
            }
        }
    }

    /// What the record reader took before, through `Data(base64Encoded:)`: the same bytes for every well-formed text.
    func testStandardDecodingAgreesWithFoundationOnWellFormedText() {
        let bytes = (0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ $0 / 7) }
        for count in [0, 1, 2, 3, 4, 5, 254, 255, 256, 1000] {
            let text = Data(bytes.prefix(count)).base64EncodedString()
            XCTAssertEqual(decoded(text), Array(bytes.prefix(count)), "\(count) bytes")
            XCTAssertEqual(decoded(text), Data(base64Encoded: text).map { Array($0) }, "\(count) bytes")
        }
        // Bits past the last whole byte are not checked, as Foundation did not check them.
        XCTAssertEqual(decoded("Zh=="), [0x66])
        XCTAssertEqual(decoded("YWJ="), Array("ab".utf8))
        XCTAssertEqual(decoded("Zh=="), Data(base64Encoded: "Zh==").map { Array($0) })
    }

    /// Standard base64 as records write it: padded to a multiple of four, nothing else.
    func testStandardDecodingRejectsWhatIsNotBase64() {
        let invalid = ["Zg", "Zg=", "Zm8", "Zm9vY", "Z", "A==", "Zm9v\n", "Zm 9v", " Zm9v", "Zg==\n", "=", "=AAA", "==AA", "A=A=",
                       "Zg==Zg==", "-_-_", "Zm9v.", "é", "Z==="]
        for text in invalid {
            XCTAssertNil(decoded(text), text.debugDescription)
        }
        // Padding out of place that Foundation's Data(base64Encoded:) on Linux took (as 0, 0 0, …): not base64 of
        // anything, and no record writes it.
        for text in ["====", "========", "AA=A", "AAAA====", "Zm9v===="] {
            XCTAssertNil(decoded(text), text)
        }
    }

    /// base64url as JWTs carry it (what APNsCrypto's Base64URL.decode took): unpadded, or padded to a multiple of four.
    func testURLDecodingTakesWhatTheJWTReaderTook() {
        XCTAssertEqual(decoded("Zg==", .url, padding: .optional), Array("f".utf8))
        XCTAssertEqual(decoded("Zm8=", .url, padding: .optional), Array("fo".utf8))
        XCTAssertEqual(decoded("Zh", .url, padding: .optional), Array("f".utf8), "bits past the last byte not checked")
        let invalid = ["Z", "Zm9vY", "Zm+v", "Zm/v", "Zm 9v", "Zg=", "Zm8==", "é", "Zm9v.", "=Zg", "Zm9v==", "Z===", "===="]
        for text in invalid {
            XCTAssertNil(decoded(text, .url, padding: .optional), text)
        }
        XCTAssertNil(decoded("Zm9vYg", .standard, padding: .required), "the standard alphabet wants its padding")
        XCTAssertNil(decoded("Zm9vYg", .url, padding: .required))
    }
}
