import APNsCrypto
import Foundation
import MockAPNs
@testable import MockAPNsWebhooks
import TestSupport
import XCTest

/// The parts of a webhook that need no receiver: the HMAC against RFC 4231's vector, the signature header, the
/// back-off's bounds and `Retry-After` forms, and what a `--webhook` URL may be.
final class WebhookPartsTests: LeakCheckedTestCase {
    func testHMACSHA256MatchesRFC4231TestCase2() {
        XCTAssertEqual(HMACSHA256.hex(key: Array("Jefe".utf8), message: Array("what do ya want for nothing?".utf8)),
                       "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
    }

    func testTheSignatureCoversTheTimestampAndTheBody() {
        let body = Array(#"{"seq":1}"#.utf8)
        let signed = WebhookSignature.value(secret: Array("s3cret".utf8), timestamp: 1_700_000_000, body: body)
        XCTAssertEqual(signed, "sha256=" + HMACSHA256.hex(key: Array("s3cret".utf8), message: Array(#"1700000000.{"seq":1}"#.utf8)))
        XCTAssertNotEqual(signed, WebhookSignature.value(secret: Array("s3cret".utf8), timestamp: 1_700_000_001, body: body))
    }

    func testBackOffGrowsUpToItsCapWithJitter() {
        let backoff = WebhookBackoff()
        XCTAssertEqual(backoff.delay(afterAttempt: 1, random: 1), .milliseconds(500))
        XCTAssertEqual(backoff.delay(afterAttempt: 3, random: 1), .seconds(2))
        XCTAssertEqual(backoff.delay(afterAttempt: 40, random: 1), .seconds(30), "capped, and no overflow")
        XCTAssertEqual(backoff.delay(afterAttempt: 3, random: 0.5), .seconds(1))
        XCTAssertEqual(backoff.delay(afterAttempt: 3, random: 0), .zero)
    }

    func testRetryAfterTakesSecondsOrAnHTTPDateAndIsCapped() {
        XCTAssertEqual(WebhookBackoff.retryAfter("7"), .seconds(7))
        XCTAssertEqual(WebhookBackoff.retryAfter("100000"), WebhookBackoff.maxRetryAfter)
        XCTAssertNil(WebhookBackoff.retryAfter("-1"))
        XCTAssertNil(WebhookBackoff.retryAfter("soon"))
        XCTAssertNil(WebhookBackoff.retryAfter(nil))
        let now = Date(timeIntervalSince1970: 1_445_412_480)   // Wed, 21 Oct 2015 07:28:00 GMT
        XCTAssertEqual(WebhookBackoff.retryAfter("Wed, 21 Oct 2015 07:28:30 GMT", now: now), .seconds(30))
        XCTAssertEqual(WebhookBackoff.retryAfter("Wed, 21 Oct 2015 07:27:00 GMT", now: now), .zero, "a date past is now")
    }

    func testATargetKeepsCredentialsOutOfItsURLAndRefusesOtherSchemes() throws {
        let target = try WebhookTarget(url: "https://hook:p%40ss@example.com:8443/in?x=1")
        XCTAssertEqual(target.url, "https://example.com:8443/in?x=1")
        XCTAssertEqual(target.basicAuthorization, "Basic " + Data("hook:p@ss".utf8).base64EncodedString())
        XCTAssertEqual(WebhookTarget.redacted("https://hook:secret@example.com/in"), "https://example.com/in")
        XCTAssertThrowsError(try WebhookTarget(url: "ftp://example.com/in"))
        XCTAssertThrowsError(try WebhookTarget(url: "not a url"))
        do {
            _ = try WebhookTarget(url: "file://user:pw@/etc/passwd")
            XCTFail("a file URL was taken")
        } catch {
            XCTAssertFalse(error.description.contains("pw"), "the message shows no password: \(error)")
        }
    }
}
