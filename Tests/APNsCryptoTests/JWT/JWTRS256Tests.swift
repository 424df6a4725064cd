import APNsCrypto
import XCTest

/// RS256 tokens, shaped as a Google service account's OAuth grant, through the same signer, parser and verifier as
/// the ES256 provider tokens.
final class JWTRS256Tests: XCTestCase {
    private static let keys = Result { try (RSAPrivateKey.generate(), RSAPrivateKey.generate()) }

    private func grant(key: RSAPrivateKey) throws -> String {
        try JWTSigner.makeToken(
            header: ["typ": .string("JWT"), "alg": .string("RS256"), "kid": .string("0123456789abcdef0123456789abcdef01234567")],
            claims: [
                "iss": .string("firebase-adminsdk-mock@example.iam.gserviceaccount.com"),
                "scope": .string("https://www.googleapis.com/auth/firebase.messaging"),
                "aud": .string("https://oauth2.googleapis.com/token"),
                "iat": .integer(1_700_000_000), "exp": .integer(1_700_003_600),
            ],
            key: key
        )
    }

    func testAGrantSignedRS256ParsesAndVerifiesWithItsKeyOnly() throws {
        let (key, other) = try Self.keys.get()
        let jwt = try JWT.parse(try grant(key: key))
        XCTAssertEqual(jwt.algorithm, "RS256")
        XCTAssertEqual(jwt.type, "JWT")
        XCTAssertEqual(jwt.keyID, "0123456789abcdef0123456789abcdef01234567")
        XCTAssertEqual(jwt.issuer, "firebase-adminsdk-mock@example.iam.gserviceaccount.com")
        XCTAssertEqual(jwt.issuedAt, .seconds(1_700_000_000))
        XCTAssertEqual(jwt.signature.count, 256)
        XCTAssertTrue(JWTVerifier.isSignatureValid(jwt, key: key.publicKey))
        XCTAssertFalse(JWTVerifier.isSignatureValid(jwt, key: other.publicKey))
        XCTAssertEqual(jwt.signature, try key.signRS256(jwt.signingInput))
    }

    func testATamperedGrantFails() throws {
        let (key, _) = try Self.keys.get()
        var parts = try grant(key: key).split(separator: ".").map(String.init)
        parts[1] = Base64URL.encode(Array(#"{"iss":"someone@else.iam.gserviceaccount.com","iat":1700000000}"#.utf8))
        XCTAssertFalse(JWTVerifier.isSignatureValid(try JWT.parse(parts.joined(separator: ".")), key: key.publicKey))
        let unsigned = try JWT.parse(parts[0] + "." + parts[1] + ".")
        XCTAssertFalse(JWTVerifier.isSignatureValid(unsigned, key: key.publicKey))
    }

    func testAnES256TokenIsNoRS256Token() throws {
        let (key, _) = try Self.keys.get()
        let es256 = try JWTSigner.makeToken(teamID: "TESTTEAM01", keyID: "TESTKEY001", issuedAt: 1, key: P256PrivateKey.generate())
        XCTAssertFalse(JWTVerifier.isSignatureValid(try JWT.parse(es256), key: key.publicKey))
    }
}
