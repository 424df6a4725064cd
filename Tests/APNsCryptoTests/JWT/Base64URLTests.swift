import APNsCrypto
import XCTest

final class Base64URLTests: XCTestCase {
    /// RFC 4648 §10 test vectors, without padding, plus bytes that use the URL-safe characters. Decoding is the JSON
    /// module's (APNsModelTests' Base64Tests, with what the JWT reader took and refused).
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

    /// Every length, read back by the JWT parser (through the JSON module's decoder, tested in APNsModelTests'
    /// Base64Tests) as a token's signature segment.
    func testRoundTripOfEveryLengthThroughTheParser() throws {
        for length in 0..<70 {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
            let token = Base64URL.encode(Array("{}".utf8)) + "." + Base64URL.encode(Array("{}".utf8)) + "." + Base64URL.encode(bytes)
            XCTAssertEqual(try JWT.parse(token).signature, bytes, "length \(length)")
        }
    }
}
