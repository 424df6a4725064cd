import Support
import APNsModel
import XCTest

final class ExponentialBackoffTests: XCTestCase {
    func testDoublesFromTheFirstWaitUpToTheCapScaledByJitter() {
        let backoff = ExponentialBackoff(first: .milliseconds(100), cap: .seconds(30))
        XCTAssertEqual(backoff.delay(afterFailures: 1, jitter: 1), .milliseconds(100))
        XCTAssertEqual(backoff.delay(afterFailures: 2, jitter: 1), .milliseconds(200))
        XCTAssertEqual(backoff.delay(afterFailures: 4, jitter: 1), .milliseconds(800))
        XCTAssertEqual(backoff.delay(afterFailures: 9, jitter: 1), .milliseconds(25_600))
        XCTAssertEqual(backoff.delay(afterFailures: 10, jitter: 1), .seconds(30), "capped")
        XCTAssertEqual(backoff.delay(afterFailures: 4, jitter: 0.5), .milliseconds(400))
        XCTAssertEqual(backoff.delay(afterFailures: 4, jitter: 0), .zero)
    }

    func testCountsAndJitterOutOfRangeAreClampedAndNeverOverflow() {
        let backoff = ExponentialBackoff(first: .seconds(1), cap: .seconds(60))
        XCTAssertEqual(backoff.delay(afterFailures: 0, jitter: 1), .seconds(1), "no failure counts as the first")
        XCTAssertEqual(backoff.delay(afterFailures: -5, jitter: 1), .seconds(1))
        XCTAssertEqual(backoff.delay(afterFailures: .max, jitter: 1), .seconds(60))
        XCTAssertEqual(backoff.delay(afterFailures: 3, jitter: 7), .seconds(4), "jitter above 1 counts as 1")
        XCTAssertEqual(backoff.delay(afterFailures: 3, jitter: -1), .zero)
    }
}
