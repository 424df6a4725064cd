@testable import APNsModel
import XCTest

/// A generated ID is spelled as a lowercase canonical UUID of its two halves, digit for digit.
final class GeneratedIDTests: XCTestCase {
    /// The spelling the slow, obvious way: 32 hex digits of the two halves, dashes at 8-4-4-4-12.
    private func reference(_ id: APNsIDGenerator.GeneratedID) -> String {
        func hex(_ value: UInt64) -> String {
            let digits = String(value, radix: 16)
            return String(repeating: "0", count: 16 - digits.count) + digits
        }
        let all = Array(hex(id.high) + hex(id.low))
        return [all[0..<8], all[8..<12], all[12..<16], all[16..<20], all[20..<32]].map { String($0) }.joined(separator: "-")
    }

    func testSpellingMatchesTheReferenceForEveryNibble() {
        var ids = (0..<2000).map { _ in APNsIDGenerator.nextID() }
        // Every hex digit in every position, and the extremes.
        for digit in UInt64(0)...15 {
            let spread = digit &* 0x1111_1111_1111_1111
            ids.append(APNsIDGenerator.GeneratedID(high: spread, low: ~spread))
        }
        ids.append(APNsIDGenerator.GeneratedID(high: 0x0123_4567_89AB_CDEF, low: 0xFEDC_BA98_7654_3210))
        for id in ids {
            XCTAssertEqual(id.text, reference(id))
            XCTAssertEqual(id.text.utf8.count, APNsIDGenerator.GeneratedID.textLength)
        }
    }
}
