import APNsCrypto
import XCTest

final class Base64URLTests: XCTestCase {
    /// RFC 4648 §10 test vectors, without padding, plus bytes that use the URL-safe characters.
    private let vectors: [(bytes: [UInt8], text: String)] = [
        (Array("".utf8), ""),
        (Array("f".utf8), "Zg"),
        (Array("fo".utf8), "Zm8"),
        (Array("foo".utf8), "Zm9v"),
        (Array("foob".utf8), "Zm9vYg"),
        (Array("fooba".utf8), "Zm9vYmE"),
        (Array("foobar".utf8), "Zm9vYmFy"),
        ([0xFB, 0xFF, 0xBF], "-_-_"),
        ([0xFF, 0xFF, 0xFE], "___-"),
    ]

    func testEncode() {
        for vector in vectors {
            XCTAssertEqual(Base64URL.encode(vector.bytes), vector.text)
        }
    }

    func testDecode() {
        for vector in vectors {
            XCTAssertEqual(Base64URL.decode(Substring(vector.text)), vector.bytes, vector.text)
        }
    }

    func testDecodeToleratesCorrectPadding() {
        XCTAssertEqual(Base64URL.decode("Zg=="), Array("f".utf8))
        XCTAssertEqual(Base64URL.decode("Zm8="), Array("fo".utf8))
    }

    func testDecodeRejectsInvalidInput() {
        let invalid = ["Z", "Zm9vY", "Zm+v", "Zm/v", "Zm 9v", "Zg=", "Zm8==", "é", "Zm9v.", "=Zg"]
        for text in invalid {
            XCTAssertNil(Base64URL.decode(Substring(text)), text)
        }
    }

    func testRoundTripOfEveryLength() {
        for length in 0..<70 {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
            XCTAssertEqual(Base64URL.decode(Substring(Base64URL.encode(bytes))), bytes, "length \(length)")
        }
    }
}
