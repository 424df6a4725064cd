import HTTP2
import XCTest
@testable import APNsClient
import TestSupport

/// The pool's shared back-off: how the delay grows, where it stops, what resets it, and how causes read.
final class ConnectBackoffTests: LeakCheckedTestCase {
    func testDelayDoublesFromOneHundredMillisecondsToThirtySeconds() {
        XCTAssertEqual(ConnectBackoff.delay(afterFailures: 1, jitter: 1), .milliseconds(100))
        XCTAssertEqual(ConnectBackoff.delay(afterFailures: 2, jitter: 1), .milliseconds(200))
        XCTAssertEqual(ConnectBackoff.delay(afterFailures: 5, jitter: 1), .milliseconds(1600))
        XCTAssertEqual(ConnectBackoff.delay(afterFailures: 10, jitter: 1), .seconds(30))
        XCTAssertEqual(ConnectBackoff.delay(afterFailures: 1_000, jitter: 1), .seconds(30))
        XCTAssertEqual(ConnectBackoff.delay(afterFailures: 3, jitter: 0.5), .milliseconds(200))
    }

    func testFailuresCountTheOutageAndSuccessResetsIt() {
        var backoff = ConnectBackoff()
        let start = ContinuousClock.now
        XCTAssertNil(backoff.failure(address: "h:1", now: start))
        backoff.failed(cause: "connection refused", started: start, now: start + .milliseconds(1), jitter: 1)
        XCTAssertEqual(backoff.nextAttempt, start + .milliseconds(101))
        backoff.failed(cause: "connection refused", started: start + .milliseconds(101), now: start + .milliseconds(102),
                       jitter: 1)
        XCTAssertEqual(backoff.nextAttempt, start + .milliseconds(302))
        let failure = backoff.failure(address: "127.0.0.1:2197", now: start + .milliseconds(4200))
        XCTAssertEqual(failure?.description, "could not connect to 127.0.0.1:2197: connection refused, 2 attempts over 4.2 s")
        backoff.succeeded()
        XCTAssertNil(backoff.failure(address: "h:1", now: start))
        XCTAssertNil(backoff.nextAttempt)
        backoff.failed(cause: "x", started: start, now: start, jitter: 1)
        XCTAssertEqual(backoff.nextAttempt, start + .milliseconds(100), "after a success the delay starts over")
    }

    func testCausesReadAsPartOfASentence() {
        let address = "127.0.0.1:2197"
        XCTAssertEqual(ConnectBackoff.cause(of: .connectFailed("127.0.0.1:2197: connect failed: Connection refused (errno 111)"),
                                            address: address), "connection refused")
        XCTAssertEqual(ConnectBackoff.cause(of: .connectFailed("127.0.0.1:2197: Connection refused"), address: address),
                       "connection refused")
        XCTAssertEqual(ConnectBackoff.cause(of: .tlsHandshakeFailed("certificate verification failed: x"), address: address),
                       "TLS handshake failed: certificate verification failed: x")
        XCTAssertTrue(ConnectBackoff.isPermanent(.tlsHandshakeFailed("certificate verification failed: x")))
        XCTAssertFalse(ConnectBackoff.isPermanent(.tlsHandshakeFailed("the server closed the connection during the handshake")))
        XCTAssertFalse(ConnectBackoff.isPermanent(.connectFailed("refused")))
    }
}
