import APNsModel
import ModelTestSupport
import XCTest

final class JWTRulesTests: XCTestCase {
    private let now = TestCredentials.now
    private func token(key: String? = "TESTKEY001", team: String? = "TESTTEAM01", iat: ProviderTokenFacts.IssuedAt? = nil,
                       alg: String? = "ES256", signature: ProviderTokenFacts.SignatureCheck = .valid) -> ProviderTokenFacts {
        TestCredentials.token(key: key, team: team, iat: iat, alg: alg, signature: signature)
    }

    func testIssuedAtWindow() {
        let cases: [(Int64, APNsReason?, String)] = [
            (0, nil, "now"),
            (-3599, nil, "3599 s old"),
            (-3600, nil, "exactly one hour old"),
            (-3601, .expiredProviderToken, "3601 s old"),
            (-7200, .expiredProviderToken, "two hours old"),
            (59, nil, "59 s in the future"),
            (60, nil, "60 s in the future"),
            (61, .invalidProviderToken, "61 s in the future"),
            (600, .invalidProviderToken, "ten minutes in the future"),
        ]
        for (offset, expected, label) in cases {
            XCTAssertEqual(JWTRules.check(token(iat: .seconds(now + offset)), now: now), expected, label)
        }
        XCTAssertEqual(JWTRules.check(token(iat: .missing), now: now), .invalidProviderToken)
        XCTAssertEqual(JWTRules.check(token(iat: .invalid), now: now), .invalidProviderToken)
    }

    /// Every Int64 `iat` gets an answer and none traps: `now - iat` leaving Int64 is InvalidProviderToken.
    func testIssuedAtExtremesNeverTrap() {
        let cases: [(Int64, APNsReason?, String)] = [
            (Int64.min, .invalidProviderToken, "-2^63: now - iat overflows"),
            (Int64.min + 1, .invalidProviderToken, "-2^63+1: now - iat overflows"),
            (-now, .expiredProviderToken, "far past, no overflow"),
            (0, .expiredProviderToken, "1970"),
            (Int64.max, .invalidProviderToken, "2^63-1: far future"),
        ]
        for (iat, expected, label) in cases {
            XCTAssertEqual(JWTRules.check(token(iat: .seconds(iat)), now: now), expected, label)
        }
        // A clock at the end of Int64 still answers (now + skew would overflow).
        XCTAssertNil(JWTRules.check(token(iat: .seconds(Int64.max)), now: Int64.max))
        XCTAssertEqual(JWTRules.check(token(iat: .seconds(Int64.min)), now: Int64.max), .invalidProviderToken)
    }

    func testAlgorithmsAndIdentity() {
        let cases: [(ProviderTokenFacts, APNsReason?, String)] = [
            (token(), nil, "valid"),
            (token(signature: .notChecked), nil, "signature not checked"),
            (token(alg: "none"), .invalidProviderToken, "alg none"),
            (token(alg: "HS256"), .invalidProviderToken, "alg HS256"),
            (token(alg: "RS256"), .invalidProviderToken, "alg RS256"),
            (token(alg: "es256"), .invalidProviderToken, "alg lower case"),
            (token(alg: nil), .invalidProviderToken, "no alg"),
            (token(key: nil), .invalidProviderToken, "no kid"),
            (token(team: nil), .invalidProviderToken, "no iss"),
            (token(team: ""), .invalidProviderToken, "empty iss"),
            (token(key: "UNKNOWN001"), .invalidProviderToken, "unknown key"),
            (token(team: "OTHERTEAM1"), .invalidProviderToken, "iss is not the key's team"),
            (token(key: "OTHERKEY01", team: "TESTTEAM01"), .invalidProviderToken, "other team's key, our iss"),
            (token(key: "OTHERKEY01", team: "OTHERTEAM1"), nil, "other team, consistent"),
            (token(signature: .invalid), .invalidProviderToken, "bad signature"),
        ]
        for (facts, expected, label) in cases {
            XCTAssertEqual(JWTRules.check(facts, now: now), expected, label)
        }
    }

    func testIdentityIsCheckedBeforeTime() {
        XCTAssertEqual(JWTRules.check(token(iat: .seconds(now - 7200), signature: .invalid), now: now), .invalidProviderToken)
        XCTAssertEqual(JWTRules.check(token(key: "UNKNOWN001", iat: .seconds(now - 7200)), now: now), .invalidProviderToken)
        XCTAssertEqual(JWTRules.check(token(iat: .seconds(now - 7200), alg: "HS256"), now: now), .invalidProviderToken)
    }

    func testBearerTokenExtraction() {
        XCTAssertEqual(ProviderCredential.bearerToken(fromAuthorization: "bearer a.b.c"), "a.b.c")
        XCTAssertEqual(ProviderCredential.bearerToken(fromAuthorization: "Bearer  a.b.c "), "a.b.c")
        XCTAssertNil(ProviderCredential.bearerToken(fromAuthorization: "bearer "))
        XCTAssertNil(ProviderCredential.bearerToken(fromAuthorization: "Basic abc"))
        XCTAssertNil(ProviderCredential.bearerToken(fromAuthorization: ""))
    }

    func testCertificateRules() {
        let ok = CertificateFacts(trusted: true, subjectUID: "a")
        XCTAssertNil(CertificateRules.check(ok, environment: .development))
        XCTAssertNil(CertificateRules.check(ok, environment: .production))
        XCTAssertEqual(CertificateRules.check(CertificateFacts(trusted: false, subjectUID: "a"), environment: .development), .badCertificate)
        XCTAssertEqual(CertificateRules.check(CertificateFacts(trusted: true, expired: true, subjectUID: "a"), environment: .development), .badCertificate)
        let devOnly = CertificateFacts(trusted: true, subjectUID: "a", allowsDevelopment: true, allowsProduction: false)
        XCTAssertNil(CertificateRules.check(devOnly, environment: .development))
        XCTAssertEqual(CertificateRules.check(devOnly, environment: .production), .badCertificateEnvironment)
        let prodOnly = CertificateFacts(trusted: true, subjectUID: "a", allowsDevelopment: false, allowsProduction: true)
        XCTAssertEqual(CertificateRules.check(prodOnly, environment: .development), .badCertificateEnvironment)
        let untrustedDevOnly = CertificateFacts(trusted: false, subjectUID: "a", allowsDevelopment: true, allowsProduction: false)
        XCTAssertEqual(CertificateRules.check(untrustedDevOnly, environment: .production), .badCertificate, "trust before environment")
    }
}
