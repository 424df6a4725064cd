import FCMModel
import JSON
import XCTest

/// The token endpoint's form and the JWT-bearer grant's checks (fcm-rules §2).
final class OAuthTests: XCTestCase {
    private let now: Int64 = 1_767_225_600
    private let email = "sa@mockapns-test.iam.gserviceaccount.com"

    private func jwt(header: JSONValue? = nil, claims: [String: JSONValue] = [:], drop: Set<String> = [], signature: [UInt8] = [1, 2, 3]) -> String {
        let head = header ?? .object([.init("typ", .string("JWT")), .init("alg", .string("RS256")), .init("kid", .string("key1"))])
        var all: [String: JSONValue] = [
            "iss": .string(email), "scope": .string("https://www.googleapis.com/auth/cloud-platform"),
            "aud": .string("https://oauth2.googleapis.com/token"), "iat": .integer(now), "exp": .integer(now + 3600),
        ]
        for (key, value) in claims { all[key] = value }
        for key in drop { all[key] = nil }
        let body = JSONValue.object(all.keys.sorted().map { .init($0, all[$0]!) })
        return [Array(head.jsonText().utf8), Array(body.jsonText().utf8), signature]
            .map { Base64.encodedString($0, alphabet: .url, padded: false) }.joined(separator: ".")
    }

    private func form(_ assertion: String, grantType: String = OAuthAssertion.jwtBearerGrantType) -> [UInt8] {
        Array("grant_type=\(FormURLEncoding.encode(grantType))&assertion=\(assertion)".utf8)
    }

    private func outcome(_ body: [UInt8], now: Int64? = nil) -> OAuthError? {
        do {
            _ = try OAuthAssertion.parse(formBody: body, now: now ?? self.now)
            return nil
        } catch {
            return error
        }
    }

    func testFormDecoding() {
        let cases: [(String, [FormURLEncoding.Field]?)] = [
            ("a=1&b=2", [.init(name: "a", value: "1"), .init(name: "b", value: "2")]),
            ("a=x+y%20z%2B", [.init(name: "a", value: "x y z+")]),
            ("a=&b", [.init(name: "a", value: ""), .init(name: "b", value: "")]),
            ("&&a=1&", [.init(name: "a", value: "1")]),
            ("a=b=c", [.init(name: "a", value: "b=c")]),
            ("n%C3%A9=%E2%82%AC", [.init(name: "né", value: "€")]),
            ("", []),
            ("a=%", nil), ("a=%4", nil), ("a=%zz", nil), ("a=%FF", nil), ("%C3=1", nil),
        ]
        for (text, fields) in cases { XCTAssertEqual(FormURLEncoding.decode(Array(text.utf8)), fields, text) }
        let text = "urn:ietf:params:oauth:grant-type:jwt-bearer ü&="
        XCTAssertEqual(FormURLEncoding.decode(Array(("x=" + FormURLEncoding.encode(text)).utf8))?.first?.value, text)
        XCTAssertEqual(FormURLEncoding.encode("a b*-._~"), "a+b*-._%7E")
    }

    func testAGoodGrant() throws {
        let token = jwt()
        let assertion = try OAuthAssertion.parse(formBody: form(token), now: now)
        XCTAssertEqual(assertion.keyID, "key1")
        XCTAssertEqual(assertion.issuer, email)
        XCTAssertEqual(assertion.issuedAt, now)
        XCTAssertEqual(assertion.expiresAt, now + 3600)
        XCTAssertEqual(assertion.scopes, ["https://www.googleapis.com/auth/cloud-platform"])
        XCTAssertEqual(assertion.signature, [1, 2, 3])
        let parts = token.split(separator: ".")
        XCTAssertEqual(assertion.signingInput, Array((parts[0] + "." + parts[1]).utf8), "what RS256 signed")
        XCTAssertNil(assertion.subject)
        // google-auth escapes the form; the grant type's colons arrive as %3A.
        XCTAssertNoThrow(try OAuthAssertion.parse(formBody: Array("grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=\(token)".utf8), now: now))
        // Structure alone: a grant whose time is wrong still parses until check(now:).
        let stale = try OAuthAssertion.parse(formBody: form(token))
        XCTAssertThrowsError(try stale.check(now: now + 7200))
    }

    func testRefusals() {
        let cases: [([UInt8], OAuthError.Code, String)] = [
            (Array("assertion=\(jwt())".utf8), .invalidRequest, "Missing required parameter: grant_type"),
            (form(jwt(), grantType: "password"), .unsupportedGrantType, "Invalid grant_type: password"),
            (Array("grant_type=\(FormURLEncoding.encode(OAuthAssertion.jwtBearerGrantType))".utf8), .invalidRequest, "Missing required parameter: assertion"),
            (Array("grant_type=x&grant_type=y".utf8), .invalidRequest, "repeated"),
            (Array("grant_type=%zz".utf8), .invalidRequest, "not application/x-www-form-urlencoded"),
            (form("abc"), .invalidGrant, "three base64url parts"),
            (form("a.b"), .invalidGrant, "three base64url parts"),
            (form("a.b.c.d"), .invalidGrant, "three base64url parts"),
            (form("!!.!!.!!"), .invalidGrant, "three base64url parts"),
            (form(Base64.encodedString(Array("[1]".utf8), alphabet: .url, padded: false) + ".e30.AQ"), .invalidGrant, "three base64url parts"),
            (form(jwt(header: .object([.init("alg", .string("HS256")), .init("kid", .string("k"))]))), .invalidGrant, "alg must be RS256"),
            (form(jwt(header: .object([.init("alg", .string("none")), .init("kid", .string("k"))]))), .invalidGrant, "alg must be RS256"),
            (form(jwt(header: .object([.init("kid", .string("k"))]))), .invalidGrant, "alg must be RS256"),
            (form(jwt(header: .object([.init("alg", .string("RS256"))]))), .invalidGrant, "(kid)"),
            (form(jwt(header: .object([.init("alg", .string("RS256")), .init("kid", .string(""))]))), .invalidGrant, "(kid)"),
            (form(jwt(drop: ["iss"])), .invalidGrant, "iss"),
            (form(jwt(signature: [])), .invalidGrant, "Invalid JWT Signature."),
            (form(jwt(claims: ["aud": .string("https://www.googleapis.com/oauth2/v4/token")])), .invalidGrant, "Failed audience check"),
            (form(jwt(drop: ["aud"])), .invalidGrant, "Failed audience check"),
            (form(jwt(drop: ["iat"])), .invalidGrant, "short-lived"),
            (form(jwt(drop: ["exp"])), .invalidGrant, "short-lived"),
            (form(jwt(claims: ["iat": .double(Double(now) + 0.5)])), .invalidGrant, "short-lived"),
            (form(jwt(claims: ["iat": .string(String(now))])), .invalidGrant, "short-lived"),
            (form(jwt(claims: ["exp": .integer(now + 3601)])), .invalidGrant, "short-lived"),
            (form(jwt(claims: ["exp": .integer(now - 1)])), .invalidGrant, "short-lived"),
            (form(jwt(claims: ["iat": .integer(now - 3600), "exp": .integer(now)])), .invalidGrant, "short-lived"),
            (form(jwt(claims: ["iat": .integer(now + 61), "exp": .integer(now + 3600)])), .invalidGrant, "short-lived"),
            (form(jwt(claims: ["iat": .integer(Int64.min), "exp": .integer(Int64.max)])), .invalidGrant, "short-lived"),
            (form(jwt(claims: ["iat": .integer(Int64.max), "exp": .integer(Int64.min)])), .invalidGrant, "short-lived"),
            (form(jwt(drop: ["scope"])), .invalidScope, "Invalid OAuth scope"),
            (form(jwt(claims: ["scope": .string("https://www.googleapis.com/auth/userinfo.email")])), .invalidScope, "Invalid OAuth scope"),
            (form(jwt(claims: ["scope": .string("https://www.googleapis.com/auth/cloud-platformx")])), .invalidScope, "Invalid OAuth scope"),
        ]
        for (body, code, text) in cases {
            let label = String(decoding: body.prefix(80), as: UTF8.self)
            guard let error = outcome(body) else {
                XCTFail("granted: \(label)")
                continue
            }
            XCTAssertEqual(error.error, code, "\(label): \(error)")
            XCTAssert(error.errorDescription.contains(text), "\(label): \(error)")
            XCTAssertEqual(error.httpStatus, 400)
        }
    }

    func testTimeWindow() {
        let cases: [(Int64, Int64, Bool, String)] = [
            (0, 3600, true, "now, an hour"),
            (-3599, 1, true, "a second left"),
            (60, 3600, true, "60 s ahead"),
            (0, 0, false, "expires now"),
            (10, 5, false, "exp before iat"),
            (-100, 3500, true, "100 s old"),
        ]
        for (iat, exp, granted, label) in cases {
            let error = outcome(form(jwt(claims: ["iat": .integer(now + iat), "exp": .integer(now + exp)])))
            XCTAssertEqual(error == nil, granted, "\(label): \(String(describing: error))")
        }
        XCTAssertNil(outcome(form(jwt(claims: ["iat": .integer(Int64.max - 10), "exp": .integer(Int64.max)])), now: Int64.max - 20),
                     "a clock at the end of Int64 still answers")
    }

    func testScopesAndAudienceForms() {
        let accepted: [String: JSONValue] = [
            "scope": .string("https://www.googleapis.com/auth/firebase.messaging"),
            "aud": .array([.string("x"), .string("https://oauth2.googleapis.com/token")]),
        ]
        for (key, value) in accepted { XCTAssertNil(outcome(form(jwt(claims: [key: value]))), key) }
        XCTAssertNil(outcome(form(jwt(claims: ["scope": .string("openid  https://www.googleapis.com/auth/cloud-platform email")]))))
    }

    func testAnswers() {
        XCTAssertEqual(OAuthAssertion.tokenAnswer(accessToken: "ya29.x").jsonText(), #"{"access_token":"ya29.x","expires_in":3599,"token_type":"Bearer"}"#)
        XCTAssertEqual(OAuthError.invalidSignature.json.jsonText(), #"{"error":"invalid_grant","error_description":"Invalid JWT Signature."}"#)
        XCTAssertEqual(OAuthError.accountNotFound.description, "invalid_grant: Invalid grant: account not found")
        XCTAssertEqual(try JSONValue.parse(OAuthError.badScope.jsonBody()), OAuthError.badScope.json)
        XCTAssertEqual(OAuthError.invalidScope("x").error, .invalidScope)
    }
}
