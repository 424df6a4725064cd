import APNsClient
import APNsModel
import TestSupport
import XCTest

final class ConfigurationTests: LeakCheckedTestCase {
    func testEndpointsResolve() throws {
        XCTAssertEqual(try APNsEndpoint.production.address(), .init(host: "api.push.apple.com", port: 443, usesTLS: true))
        XCTAssertEqual(try APNsEndpoint.development.address(),
                       .init(host: "api.sandbox.push.apple.com", port: 443, usesTLS: true))
        XCTAssertEqual(try APNsEndpoint.custom(url: "https://127.0.0.1:2197").address(),
                       .init(host: "127.0.0.1", port: 2197, usesTLS: true))
        XCTAssertEqual(try APNsEndpoint.custom(url: "http://localhost").address(),
                       .init(host: "localhost", port: 80, usesTLS: false))
        XCTAssertEqual(try APNsEndpoint.custom(url: "https://[::1]:8443").address(),
                       .init(host: "::1", port: 8443, usesTLS: true))
        XCTAssertThrowsError(try APNsEndpoint.custom(url: "ftp://x").address())
        XCTAssertThrowsError(try APNsEndpoint.custom(url: "nonsense").address())
    }

    func testRetryDelaysGrowAndAreCapped() {
        let policy = APNsRetryPolicy(maxAttempts: 5, baseDelay: .milliseconds(100), maxDelay: .milliseconds(350))
        XCTAssertEqual(policy.delay(afterAttempt: 1, jitter: 1), .milliseconds(100))
        XCTAssertEqual(policy.delay(afterAttempt: 2, jitter: 1), .milliseconds(200))
        XCTAssertEqual(policy.delay(afterAttempt: 3, jitter: 1), .milliseconds(350))
        XCTAssertEqual(policy.delay(afterAttempt: 2, jitter: 0.5), .milliseconds(100))
        for _ in 0..<50 {
            let delay = policy.delay(afterAttempt: 1)
            XCTAssertTrue(delay >= .milliseconds(50) && delay <= .milliseconds(100), "\(delay)")
        }
        XCTAssertEqual(APNsRetryPolicy(maxAttempts: 0).maxAttempts, 1)
    }

    func testErrorsDescribeWhatToDo() {
        let rejected = APNsClientError.rejected(status: 410, reason: .known(.unregistered), timestamp: 1_700_000_000_000, apnsID: "x")
        XCTAssertTrue(rejected.description.contains("stop sending"), rejected.description)
        // The 410 timestamp (ms since 1970) as the moment it is, in UTC.
        XCTAssertTrue(rejected.description.contains("invalid since 2023-11-14 22:13:20 UTC."), rejected.description)
        XCTAssertFalse(rejected.description.contains("1700000000000"), rejected.description)
        XCTAssertFalse(rejected.isRetryable)
        XCTAssertTrue(APNsClientError.rejected(status: 503, reason: .unknown("Odd"), timestamp: nil, apnsID: "x").isRetryable)
        XCTAssertEqual(APNsErrorReason("BadDeviceToken"), .known(.badDeviceToken))
        XCTAssertEqual(APNsErrorReason("Nope"), .unknown("Nope"))
        XCTAssertTrue(APNsClientError.timeout.description.contains("requestTimeout"))
    }
}
