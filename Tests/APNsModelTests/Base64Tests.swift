import APNsModel
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
}
