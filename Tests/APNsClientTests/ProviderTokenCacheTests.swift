import APNsClient
import APNsCrypto
import Synchronization
import TestSupport
import XCTest

/// A clock tests move by hand.
final class ManualClock: Sendable {
    private let seconds = Mutex<Int64>(1_700_000_000)
    var now: Int64 { seconds.withLock { $0 } }
    func advance(minutes: Int64) { seconds.withLock { $0 += minutes * 60 } }
}

final class ProviderTokenCacheTests: LeakCheckedTestCase {
    private func makeCache(_ clock: ManualClock) throws -> ProviderTokenCache {
        try ProviderTokenCache(privateKeyPEM: try RepoPaths.text("AuthKey_TESTKEY001.p8"), keyID: "TESTKEY001",
                               teamID: "TESTTEAM01", clock: { clock.now })
    }

    func testTokenIsReusedFor50MinutesThenReplaced() throws {
        let clock = ManualClock()
        let cache = try makeCache(clock)
        let first = try cache.token()
        XCTAssertEqual(first.issuedAt, clock.now)
        clock.advance(minutes: 49)
        XCTAssertEqual(try cache.token(), first)
        clock.advance(minutes: 1)
        let second = try cache.token()
        XCTAssertNotEqual(second, first)
        XCTAssertEqual(second.issuedAt, clock.now)
        XCTAssertEqual(try cache.authorization(), "bearer " + second.jwt)
    }

    func testRejectionRefreshesOnlyAfter20Minutes() throws {
        let clock = ManualClock()
        let cache = try makeCache(clock)
        let first = try cache.token()
        clock.advance(minutes: 19)
        XCTAssertFalse(try cache.refreshAfterRejection())
        XCTAssertEqual(try cache.token(), first)
        clock.advance(minutes: 1)
        XCTAssertTrue(try cache.refreshAfterRejection())
        let second = try cache.token()
        XCTAssertEqual(second.issuedAt, first.issuedAt + 20 * 60)
        // The new token is itself protected for 20 minutes.
        clock.advance(minutes: 5)
        XCTAssertFalse(try cache.refreshAfterRejection())
        XCTAssertEqual(try cache.token(), second)
    }

    func testTokenIsAValidES256JWTForTheKey() throws {
        let clock = ManualClock()
        let token = try makeCache(clock).token()
        let parts = token.jwt.split(separator: ".")
        XCTAssertEqual(parts.count, 3)
        let parsed = try JWT.parse(token.jwt)   // segments decoded as the mock reads them
        XCTAssertEqual(parsed.headerJSON, #"{"alg":"ES256","kid":"TESTKEY001"}"#)
        XCTAssertEqual(parsed.claimsJSON, #"{"iss":"TESTTEAM01","iat":\#(clock.now)}"#)
        let key = try P256PrivateKey(pemRepresentation: try RepoPaths.text("AuthKey_TESTKEY001.p8"))
        XCTAssertTrue(key.publicKey.isValidSignature(parsed.signature, for: Array((String(parts[0]) + "." + String(parts[1])).utf8)))
    }

    func testBadKeySaysSo() {
        XCTAssertThrowsError(try ProviderTokenCache(privateKeyPEM: "not a key", keyID: "K", teamID: "T")) { error in
            XCTAssertTrue("\(error)".contains("P-256"), "\(error)")
        }
    }
}
