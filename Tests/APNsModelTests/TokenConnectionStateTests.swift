import APNsModel
import ModelTestSupport
import XCTest

final class TokenConnectionStateTests: XCTestCase {
    private let now = TestCredentials.now
    private func token(_ key: String = "TESTKEY001", team: String = "TESTTEAM01", iat: Int64) -> ProviderTokenFacts {
        TestCredentials.token(key: key, team: team, iat: .seconds(iat))
    }

    func testFirstTokenBindsTheConnection() {
        var state = TokenConnectionState()
        XCTAssertNil(state.teamID)
        XCTAssertFalse(state.hasSucceeded)
        XCTAssertNil(state.admit(token(iat: now), environment: .development, now: now))
        XCTAssertEqual(state.teamID, "TESTTEAM01")
        XCTAssertEqual(state.keyID, "TESTKEY001")
        XCTAssertEqual(state.currentTokenSince, now)
        XCTAssertNotNil(state.currentToken)
        state.recordSuccess()
        XCTAssertTrue(state.hasSucceeded)
    }

    func testTeamBinding() {
        var state = TokenConnectionState()
        XCTAssertNil(state.admit(token(iat: now), environment: .development, now: now))
        XCTAssertEqual(state.admit(token("OTHERKEY01", team: "OTHERTEAM1", iat: now + 1500), environment: .development, now: now + 1500), .forbidden)
        XCTAssertEqual(state.teamID, "TESTTEAM01", "a refused token does not rebind")
    }

    func testUnrelatedKey() {
        var state = TokenConnectionState()
        XCTAssertNil(state.admit(token(iat: now), environment: .development, now: now))
        XCTAssertEqual(state.admit(token("DEVKEY0001", iat: now + 1500), environment: .development, now: now + 1500), .unrelatedKeyIdInToken)
        XCTAssertEqual(state.keyID, "TESTKEY001")
    }

    func testTokenUpdateRate() {
        let cases: [(Int64, Bool, APNsReason?, String)] = [
            (19 * 60, false, .tooManyProviderTokenUpdates, "new token at +19 min"),
            (60, false, .tooManyProviderTokenUpdates, "new token at +1 min"),
            (20 * 60 - 1, false, .tooManyProviderTokenUpdates, "new token at +19:59"),
            (20 * 60, false, nil, "new token at +20 min"),
            (21 * 60, false, nil, "new token at +21 min"),
            (19 * 60, true, nil, "same token at +19 min"),
            (50 * 60, true, nil, "same token at +50 min"),
        ]
        for (elapsed, same, expected, label) in cases {
            var state = TokenConnectionState()
            let first = token(iat: now)
            XCTAssertNil(state.admit(first, environment: .development, now: now))
            let second = same ? first : token(iat: now + elapsed)
            XCTAssertEqual(state.admit(second, environment: .development, now: now + elapsed), expected, label)
            XCTAssertEqual(state.currentToken, expected == nil ? second.token : first.token, label)
            XCTAssertEqual(state.currentTokenSince, expected == nil && !same ? now + elapsed : now, label)
        }
    }

    func testRateIsMeasuredFromWhenTheCurrentTokenBegan() {
        var state = TokenConnectionState()
        XCTAssertNil(state.admit(token(iat: now), environment: .development, now: now))
        XCTAssertNil(state.admit(token(iat: now + 1260), environment: .development, now: now + 1260))
        XCTAssertEqual(state.admit(token(iat: now + 2000), environment: .development, now: now + 2000), .tooManyProviderTokenUpdates)
        XCTAssertNil(state.admit(token(iat: now + 2460), environment: .development, now: now + 2460))
    }

    func testEnvironmentRestrictedKeysBothSpellings() {
        let cases: [(String, APNsEnvironment, APNsReason?)] = [
            ("DEVKEY0001", .development, nil), ("DEVKEY0001", .production, .badEnvironmentKeyIdInToken),
            ("PRODKEY001", .production, nil), ("PRODKEY001", .development, .badEnvironmentKeyIdInToken),
            ("TESTKEY001", .development, nil), ("TESTKEY001", .production, nil),
        ]
        for (key, environment, expected) in cases {
            var state = TokenConnectionState()
            XCTAssertEqual(state.admit(token(key, iat: now), environment: environment, now: now), expected, "\(key) \(environment)")
            var other = TokenConnectionState()
            let alternative = expected.map { _ in APNsReason.badEnvironmentKeyInToken }
            XCTAssertEqual(other.admit(token(key, iat: now), environment: environment, now: now,
                                       environmentKeyReason: .badEnvironmentKeyInToken), alternative, "\(key) \(environment)")
            XCTAssertEqual(state.keyID, expected == nil ? key : nil, "a refused key does not bind")
        }
    }
}
