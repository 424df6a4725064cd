import Support
import XCTest

/// `Duration.nanoseconds`, what the loops' timers take (idle and preface timeouts, delays, the HTTP/1.1 idle
/// timeout): exact in range, clamped at zero and at `UInt64.max` instead of wrapping.
final class DurationNanosecondsTests: XCTestCase {
    func testInRangeIsExactAndOutOfRangeIsClamped() {
        XCTAssertEqual(Duration.milliseconds(1500).nanoseconds, 1_500_000_000)
        XCTAssertEqual(Duration.nanoseconds(7).nanoseconds, 7)
        XCTAssertEqual(Duration.seconds(-1).nanoseconds, 0)
        XCTAssertEqual(Duration.seconds(Int64.max).nanoseconds, .max, "would wrap to a short timer")
        XCTAssertEqual(Duration.seconds(18_446_744_073).nanoseconds, 18_446_744_073_000_000_000)
        XCTAssertEqual((Duration.seconds(18_446_744_073) + .milliseconds(999)).nanoseconds, .max)
    }
}
