@testable import APNsModel
import XCTest

/// The word-at-a-time byte tests must give the byte-by-byte answers on every length (short buffers, word
/// boundaries, overlapping last words) and for every byte value at every position.
final class ASCIIByteTests: XCTestCase {
    private func forEachBuffer(_ body: ([UInt8]) -> Void) {
        let fillers: [UInt8] = [UInt8(ascii: "a"), UInt8(ascii: "0"), UInt8(ascii: "F")]
        for length in 0...40 {
            for filler in fillers {
                let plain = [UInt8](repeating: filler, count: length)
                body(plain)
                for position in 0..<length {
                    for value in 0...255 {
                        var bytes = plain
                        bytes[position] = UInt8(value)
                        body(bytes)
                    }
                }
            }
        }
    }

    func testWordTestsAgreeWithByteTests() {
        var failures = 0
        func expect(_ got: Bool, _ wanted: Bool, _ what: String, _ bytes: [UInt8]) {
            guard got != wanted, failures < 10 else { return }
            failures += 1
            XCTFail("\(what) of \(bytes): \(got), expected \(wanted)")
        }
        forEachBuffer { bytes in
            bytes.withUnsafeBufferPointer { buffer in
                expect(ASCIIByte.isASCII(buffer), bytes.allSatisfy { $0 < 0x80 }, "isASCII", bytes)
                expect(ASCIIByte.isLowercaseASCII(buffer), bytes.allSatisfy { $0 < 0x80 && !(0x41...0x5A).contains($0) },
                       "isLowercaseASCII", bytes)
                expect(ASCIIByte.isHexDigits(buffer), bytes.allSatisfy(ASCIIByte.isHexDigit), "isHexDigits", bytes)
                expect(ASCIIByte.lacksSlashQueryAndHighBytes(buffer),
                       !bytes.contains { $0 >= 0x80 || $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") },
                       "lacksSlashQueryAndHighBytes", bytes)
            }
        }
    }

    func testEqualsAndPrefix() {
        let literal: StaticString = "apns-collapse-id-and-more"
        let text = Array("apns-collapse-id-and-more".utf8)
        for count in 0...text.count {
            for position in 0..<max(count, 1) {
                var bytes = Array(text[..<count])
                if position < count { bytes[position] ^= 0x01 }
                bytes.withUnsafeBufferPointer { buffer in
                    let same = bytes == text
                    XCTAssertEqual(ASCIIByte.equals(buffer, literal), same, "\(bytes)")
                    XCTAssertEqual(ASCIIByte.hasPrefix(buffer, "apns-"), bytes.starts(with: Array("apns-".utf8)), "\(bytes)")
                }
            }
        }
    }
}
