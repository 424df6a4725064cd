import APNsCrypto
import XCTest

final class JWTSignVerifyTests: XCTestCase {
    private func key(_ keyID: String) throws -> P256PrivateKey {
        try P256PrivateKey(contentsOfFile: TestCredentials.path("AuthKey_\(keyID).p8"))
    }

    /// Replaces one character in the middle of segment `index` with a different base64url character.
    private func tamper(_ token: String, segment index: Int) -> String {
        var parts = token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        var characters = Array(parts[index])
        let middle = characters.count / 2
        characters[middle] = characters[middle] == "A" ? "B" : "A"
        parts[index] = String(characters)
        return parts.joined(separator: ".")
    }

    func testRoundTripWithTheBundledKey() throws {
        let signer = try key("TESTKEY001")
        let token = try JWTSigner.makeToken(teamID: "TESTTEAM01", keyID: "TESTKEY001", issuedAt: 1_700_000_000, key: signer)
        let jwt = try JWT.parse(token)
        XCTAssertEqual(jwt.algorithm, "ES256")
        XCTAssertEqual(jwt.keyID, "TESTKEY001")
        XCTAssertEqual(jwt.issuer, "TESTTEAM01")
        XCTAssertEqual(jwt.issuedAt, .seconds(1_700_000_000))
        XCTAssertEqual(jwt.signature.count, 64)
        XCTAssertTrue(JWTVerifier.isSignatureValid(jwt, key: signer.publicKey))
    }

    func testEveryKeyVerifiesOnlyItsOwnTokens() throws {
        let entries = try TestCredentials.keys()
        let keys = try entries.map { try key($0.key_id) }
        for (signerIndex, entry) in entries.enumerated() {
            let token = try JWTSigner.makeToken(teamID: entry.team_id, keyID: entry.key_id, issuedAt: 1_700_000_000, key: keys[signerIndex])
            let jwt = try JWT.parse(token)
            for (verifierIndex, verifier) in keys.enumerated() {
                XCTAssertEqual(JWTVerifier.isSignatureValid(jwt, key: verifier.publicKey), signerIndex == verifierIndex,
                               "token by \(entry.key_id) checked with \(entries[verifierIndex].key_id)")
            }
        }
    }

    func testDERSignatureFormVerifies() throws {
        let signer = try key("TESTKEY001")
        let token = try JWTSigner.makeToken(
            header: ["alg": .string("ES256"), "kid": .string("TESTKEY001")],
            claims: ["iss": .string("TESTTEAM01"), "iat": .integer(1_700_000_000)],
            key: signer, signatureForm: .der
        )
        let jwt = try JWT.parse(token)
        XCTAssertEqual(jwt.signature.first, 0x30)
        XCTAssertTrue(JWTVerifier.isSignatureValid(jwt, key: signer.publicKey))
        XCTAssertFalse(JWTVerifier.isSignatureValid(jwt, key: try key("OTHERKEY01").publicKey))
    }

    func testTamperedSignatureFails() throws {
        let signer = try key("TESTKEY001")
        for form in [JWTSigner.SignatureForm.raw, .der] {
            let token = try JWTSigner.makeToken(
                header: ["alg": .string("ES256"), "kid": .string("TESTKEY001")],
                claims: ["iss": .string("TESTTEAM01"), "iat": .integer(1_700_000_000)],
                key: signer, signatureForm: form
            )
            let jwt = try JWT.parse(tamper(token, segment: 2))
            XCTAssertFalse(JWTVerifier.isSignatureValid(jwt, key: signer.publicKey), "\(form)")
        }
    }

    func testTamperedClaimsFail() throws {
        let signer = try key("TESTKEY001")
        let token = try JWTSigner.makeToken(teamID: "TESTTEAM01", keyID: "TESTKEY001", issuedAt: 1_700_000_000, key: signer)
        var parts = token.split(separator: ".").map(String.init)
        parts[1] = Base64URL.encode(Array(#"{"iss":"TESTTEAM01","iat":1700003600}"#.utf8))
        let forged = try JWT.parse(parts.joined(separator: "."))
        XCTAssertEqual(forged.issuedAt, .seconds(1_700_003_600))
        XCTAssertFalse(JWTVerifier.isSignatureValid(forged, key: signer.publicKey))

        // A different key ID in the header is also covered by the signature.
        parts = token.split(separator: ".").map(String.init)
        parts[0] = Base64URL.encode(Array(#"{"alg":"ES256","kid":"OTHERKEY01"}"#.utf8))
        let relabelled = try JWT.parse(parts.joined(separator: "."))
        XCTAssertEqual(relabelled.keyID, "OTHERKEY01")
        XCTAssertFalse(JWTVerifier.isSignatureValid(relabelled, key: signer.publicKey))
    }

    func testLenientSenderShapeParsesAndVerifies() throws {
        // typ, kid repeated in the claims, iat as a string: what some libraries send.
        let signer = try key("TESTKEY001")
        let token = try JWTSigner.makeToken(
            header: ["typ": .string("JWT"), "kid": .string("TESTKEY001"), "alg": .string("ES256")],
            claims: ["iss": .string("TESTTEAM01"), "kid": .string("TESTKEY001"), "iat": .string("1700000000")],
            key: signer
        )
        let jwt = try JWT.parse(token)
        XCTAssertEqual(jwt.type, "JWT")
        XCTAssertEqual(jwt.issuedAt, .seconds(1_700_000_000))
        XCTAssertEqual(jwt.headerJSON, #"{"typ":"JWT","kid":"TESTKEY001","alg":"ES256"}"#)
        XCTAssertTrue(JWTVerifier.isSignatureValid(jwt, key: signer.publicKey))
    }

    func testCraftedValuesAreWrittenAsJSON() throws {
        let token = try JWTSigner.makeToken(
            header: ["alg": .string("ES\"256\\\n")],
            claims: ["iat": .json("true"), "iss": .string("TEAM")],
            key: P256PrivateKey.generate()
        )
        let jwt = try JWT.parse(token)
        XCTAssertEqual(jwt.algorithm, "ES\"256\\\n")
        XCTAssertEqual(jwt.issuedAt, .invalid)
        XCTAssertEqual(jwt.issuer, "TEAM")
    }

    func testTokenWithoutSignatureDoesNotVerify() throws {
        let signer = try key("TESTKEY001")
        let token = try JWTSigner.makeToken(teamID: "TESTTEAM01", keyID: "TESTKEY001", issuedAt: 1, key: signer)
        let unsigned = String(token[..<token.lastIndex(of: ".")!]) + "."
        XCTAssertFalse(JWTVerifier.isSignatureValid(try JWT.parse(unsigned), key: signer.publicKey))
    }
}
