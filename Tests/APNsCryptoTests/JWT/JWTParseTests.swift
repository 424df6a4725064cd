import APNsCrypto
import XCTest

final class JWTParseTests: XCTestCase {
    private func segment(_ json: String) -> String {
        Base64URL.encode(Array(json.utf8))
    }

    private func token(header: String, claims: String, signature: [UInt8] = [1, 2, 3]) -> String {
        segment(header) + "." + segment(claims) + "." + Base64URL.encode(signature)
    }

    func testStandardTokenFields() throws {
        let header = #"{"alg":"ES256","kid":"TESTKEY001"}"#
        let claims = #"{"iss":"TESTTEAM01","iat":1700000000}"#
        let text = token(header: header, claims: claims, signature: [9, 8, 7])
        let jwt = try JWT.parse(text)
        XCTAssertEqual(jwt.token, text)
        XCTAssertEqual(jwt.algorithm, "ES256")
        XCTAssertEqual(jwt.keyID, "TESTKEY001")
        XCTAssertNil(jwt.type)
        XCTAssertEqual(jwt.issuer, "TESTTEAM01")
        XCTAssertEqual(jwt.issuedAt, .seconds(1_700_000_000))
        XCTAssertEqual(jwt.signature, [9, 8, 7])
        XCTAssertEqual(jwt.headerJSON, header)
        XCTAssertEqual(jwt.claimsJSON, claims)
        XCTAssertEqual(jwt.signingInput, Array((segment(header) + "." + segment(claims)).utf8))
    }

    func testOtherAlgorithmsParseAndCarryTheirAlg() throws {
        let none = segment(#"{"alg":"none"}"#) + "." + segment(#"{"iss":"TESTTEAM01","iat":1}"#) + "."
        let unsigned = try JWT.parse(none)
        XCTAssertEqual(unsigned.algorithm, "none")
        XCTAssertEqual(unsigned.signature, [])

        let hmac = try JWT.parse(token(header: #"{"alg":"HS256","typ":"JWT"}"#, claims: #"{"iss":"TESTTEAM01","iat":1}"#))
        XCTAssertEqual(hmac.algorithm, "HS256")
        XCTAssertEqual(hmac.type, "JWT")
        XCTAssertNil(hmac.keyID)
    }

    func testNonStringHeaderAndClaimFieldsReadAsAbsent() throws {
        let jwt = try JWT.parse(token(header: #"{"alg":256,"kid":["K"],"typ":null}"#, claims: #"{"iss":10}"#))
        XCTAssertNil(jwt.algorithm)
        XCTAssertNil(jwt.keyID)
        XCTAssertNil(jwt.type)
        XCTAssertNil(jwt.issuer)
        XCTAssertEqual(jwt.issuedAt, .missing)
    }

    func testIssuedAtForms() throws {
        let cases: [(claim: String, expected: JWT.IssuedAt)] = [
            (#""iat":1700000000"#, .seconds(1_700_000_000)),
            (#""iat":"1700000000""#, .seconds(1_700_000_000)),
            (#""iat":0"#, .seconds(0)),
            (#""iat":1"#, .seconds(1)),
            (#""iat":-5"#, .seconds(-5)),
            (#""iat":1.7e9"#, .seconds(1_700_000_000)),
            (#""iat":"soon""#, .invalid),
            (#""iat":"""#, .invalid),
            (#""iat":"12abc""#, .invalid),
            // RFC 7519 NumericDate: fractions are dates (Python senders sign with time.time()); rounded down.
            (#""iat":1700000000.5"#, .seconds(1_700_000_000)),
            (#""iat":1795459751.685"#, .seconds(1_795_459_751)),
            (#""iat":-0.5"#, .seconds(-1)),
            (#""iat":"1795459751.685""#, .seconds(1_795_459_751)),
            (#""iat":" 1700000000 ""#, .seconds(1_700_000_000)),
            (#""iat":"1.7e9""#, .seconds(1_700_000_000)),
            (#""iat":"inf""#, .invalid),
            (#""iat":"nan""#, .invalid),
            (#""iat":"Infinity""#, .invalid),
            (#""iat":"0x10""#, .invalid),
            (#""iat":"1.""#, .invalid),
            (#""iat":"+5""#, .seconds(5)),  // Int64("+5"): a numeric string, as before
            (#""iat":"1e""#, .invalid),
            // Out of Int64 seconds: invalid, never wrapped (2^64-1 once wrapped to -1 and was "expired").
            (#""iat":9223372036854775807"#, .seconds(Int64.max)),
            (#""iat":-9223372036854775808"#, .seconds(Int64.min)),
            (#""iat":"-9223372036854775808""#, .seconds(Int64.min)),
            (#""iat":9223372036854775808"#, .invalid),
            (#""iat":"9223372036854775808""#, .invalid),
            (#""iat":18446744073709551615"#, .invalid),
            (#""iat":"18446744073709551615""#, .invalid),
            (#""iat":1e300"#, .invalid),
            (#""iat":-1e300"#, .invalid),
            (#""iat":true"#, .invalid),
            (#""iat":false"#, .invalid),
            (#""iat":null"#, .invalid),
            (#""iat":{}"#, .invalid),
            (#""iat":[1700000000]"#, .invalid),
            (#""iat":99999999999999999999"#, .invalid),
            (#""iss":"TESTTEAM01""#, .missing),
        ]
        for (claim, expected) in cases {
            let jwt = try JWT.parse(token(header: #"{"alg":"ES256"}"#, claims: "{\(claim)}"))
            XCTAssertEqual(jwt.issuedAt, expected, claim)
        }
    }

    func testMalformedTokensThrow() {
        let goodHeader = segment(#"{"alg":"ES256"}"#)
        let goodClaims = segment(#"{"iat":1}"#)
        let cases: [(name: String, token: String, error: JWTParseError)] = [
            ("empty", "", .wrongSegmentCount(1)),
            ("one part", goodHeader, .wrongSegmentCount(1)),
            ("two parts", goodHeader + "." + goodClaims, .wrongSegmentCount(2)),
            ("four parts", goodHeader + "." + goodClaims + ".c2ln.extra", .wrongSegmentCount(4)),
            ("empty header", "." + goodClaims + ".c2ln", .emptySegment(.header)),
            ("empty claims", goodHeader + "..c2ln", .emptySegment(.claims)),
            ("header not base64url", "e30*." + goodClaims + ".c2ln", .invalidBase64URL(.header)),
            ("header standard base64", segment("{}") + "+/." + goodClaims + ".c2ln", .invalidBase64URL(.header)),
            ("claims not base64url", goodHeader + ".!!!!.c2ln", .invalidBase64URL(.claims)),
            ("signature not base64url", goodHeader + "." + goodClaims + ".c2l*", .invalidBase64URL(.signature)),
            ("signature impossible length", goodHeader + "." + goodClaims + ".c2lud", .invalidBase64URL(.signature)),
            ("header not JSON", segment("hello") + "." + goodClaims + ".c2ln", .notJSONObject(.header)),
            ("header JSON array", segment("[1]") + "." + goodClaims + ".c2ln", .notJSONObject(.header)),
            ("header JSON string", segment(#""ES256""#) + "." + goodClaims + ".c2ln", .notJSONObject(.header)),
            ("claims not JSON", goodHeader + "." + segment("{iat:1}") + ".c2ln", .notJSONObject(.claims)),
            ("claims truncated JSON", goodHeader + "." + segment(#"{"iat":1"#) + ".c2ln", .notJSONObject(.claims)),
        ]
        for testCase in cases {
            XCTAssertThrowsError(try JWT.parse(testCase.token), testCase.name) { error in
                XCTAssertEqual(error as? JWTParseError, testCase.error, testCase.name)
                XCTAssertFalse("\(error)".isEmpty)
            }
        }
    }

    func testErrorMessagesNameTheSegment() {
        XCTAssertTrue(JWTParseError.invalidBase64URL(.claims).description.contains("claims"))
        XCTAssertTrue(JWTParseError.wrongSegmentCount(2).description.contains("2"))
    }
}
