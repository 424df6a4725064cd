import APNsCrypto
import Foundation
import XCTest

final class RSAKeyTests: XCTestCase {
    /// A 2048-bit PKCS#1 key as `openssl pkey -traditional` writes it, and what `openssl` says of it: the SHA-256 of
    /// its SubjectPublicKeyInfo DER (`openssl pkey -pubout -outform DER | sha256sum`) and its RS256 signature of
    /// `message` (`openssl dgst -sha256 -sign`, base64). PKCS#1 v1.5 is deterministic, so ours must be the same bytes.
    private let pkcs1PrivateKey = """
        -----BEGIN RSA PRIVATE KEY-----
        MIIEowIBAAKCAQEAvsj2wsuIiBqIWMG11bXvODE2SLyrPFIeZC2WuN92skRVvpGg
        YioeGbvyGua24LjdQMk3hQQtdYt8KIpa0VVl2ipZl9G8EPXtjmLXm7e2BVe8d77N
        cRTDBp1ytMn5VhdZmJdt/2wR0u6RaBe8Ab6JExYhlI1yX3yhQGJKTKYdV7NaAPXz
        P1SV56Nod1UVvoIt0eQQkO65CiTFvZaNnka4vs5EhcxpevXavfJjIsqs7cBrusTe
        EyWaZocvR4di83ttT886GMkrMnvEygxlLpjnNdg575EFkQNb9tqkHfyqAAArfX/g
        d6Eit54rUe37oBzn332otzz3JLK1j2XrZepVaQIDAQABAoIBAC3BKgbZA68qd9Eb
        cdWlSo/2I2/pyYJPqmi5kzhWpVOG9m5b4/Qu6CWhUKSZeLnns+4945IDyLg0QcxC
        NBoYijL6bZ6uptUFedmoRE+czSs2WaV5LbGFOml7eJ85ghHeyzbAeFmlrBejbd1i
        Nc1QSfT5HYgQLSIP1GdJu0prG0Xk/BJV2Oaxus+KtfOJeWejfaEO6+E8vgKSgIXe
        xrvs9LmMSmKgFOkWKxI40uZwa1ZuPXZmcZBUVrz9UBk9yKrSay3JDaxCWq9sAe3u
        pgfSeknm/4CxIv5xhO8+GURRWA6ZjrJXYIreZGYrAEiXUpLG9wdRrfpmlvA559gX
        0vyHu/UCgYEA6Y6sHHtQQl//89Tl9nVLV7SRXgDbSumw88m7kPI0qw0svcFA5GLh
        sGyP7X361P6iOe34EIlaDA/AyamPBvVq0hGGYOsunIOCix/dLk8Ta6JNd69J8QY+
        4f+1v+BQ5U4tk6WKY28zhRGSSM7zw3i2V6Jy1k7j/kMTNHS1b2r2ZN0CgYEA0R4g
        XcIz5ymVg2lkJjPRWLnVAE9pRGJR+whWKX0pm3mwrNqqF3IXm4x1ToEAf7euV/ff
        7fFKJeZrsER1S/OGdgv0l5DN6vpkJztkrxDM1Xd/cszMd2l4ilrXZutpWTyNav4b
        oNZ1Son4ze0m6ywBYepQHiQCxXzySDLajfK5U/0CgYBqAAa9JnpWpZtU3ts/8Bwx
        whH3yAu/BDD7dCNctZCR0Xjs5ji9buNfXuYzs2mUIb0e7ZIYbz4fG0c0P3BaiCfj
        D3Edq5+MCWPGIMARtHHr982Q9E1qxprjl1q1qukMKV8mE4urdVy8mCz8PnED1lVr
        kJ7uBQAU9fxRYma2GqWZQQKBgQCPHyVbxiyry4Qu2pTWqKRhK16ixbbwPLKLMxt1
        bdpqNJE83LOJNGb/6NPolNX4k4hZYKb8PSZYZinSDCiTgOrIJEqU6WBlsFWXnEi+
        oKrwdsbdlVljaOY9GwtNv1Ts5EqNrbjPDbhc+a01k1gNoKKZlzqaRl83NtrDmzqF
        6Ff7KQKBgAmMOODSUmUVgkjXB3tm10OSnNNW50YfLztDwIHfMuj36X4O1nFo97Sf
        DDodYv4PTS2GTybnMXZVLQcdMgkIfx1wacOV5sz09ASgAE2/96DGR/ZjmG6rE2bC
        13HZ2nCdhuxa5iCBOwPEFTAEhwzdM3OBKThPtB2AsAgPqK/zCneO
        -----END RSA PRIVATE KEY-----
        """
    private let pkcs1Fingerprint = "2a4c6b32019b301cf083bcf30e4cc701a15b7df7ea4817019545d86d4d41e31f"
    private let pkcs1SignatureOfMessage = """
        FpdJaQB6OCKYj+KBvdAMkolFNt2VUgs8dG0PoFyrg7Fc/UqtpWxKVejKRsyofzwtcrtHkJblmKSb78JxYbohWvtB7HdsRo4U6SCPI3TUsGVJHE1R\
        W6/Ha1IiYF2nvUrKIT7jPEnqLdPW/iMbfhwedwb+TfVW4fhrBYBhcLIMMI7oYY+xkWMsgExxxniL1K5aWo93c8mmAbPJuBE+RQn+FAButum42zyg\
        6XTLnSUYWjORBomphfiL4F2J8WoqiDJOlsesMy8XD19L8ETn78ob/z0d1LHXOZrwJIDiqPHYdDC0UcpGKe2w1rBMb9GNjL0AIf1S9+xFO66LI7uj\
        3ADcLA==
        """

    private let message = Array("header.claims".utf8)

    /// One generated key for the tests that need any key (2048-bit generation takes a while).
    private static let sharedKey = Result { try RSAPrivateKey.generate() }
    private func anyKey() throws -> RSAPrivateKey { try Self.sharedKey.get() }

    /// Asserts that `body` throws `CryptoError` `expected` and returns its sentence.
    @discardableResult
    private func assertThrows<T>(_ expected: CryptoError, file: StaticString = #filePath, line: UInt = #line,
                                 _ body: () throws -> T) -> String {
        do {
            _ = try body()
            XCTFail("no error; expected \(expected)", file: file, line: line)
            return ""
        } catch {
            XCTAssertEqual(error as? CryptoError, expected, file: file, line: line)
            return "\(error)"
        }
    }

    // MARK: Sign and verify

    func testAGeneratedKeySignsAndItsPublicKeyVerifies() throws {
        let key = try RSAPrivateKey.generate()
        XCTAssertEqual(key.publicKey.bitCount, 2048)
        let signature = try key.signRS256(message)
        XCTAssertEqual(signature.count, 256, "an RS256 signature is as long as the modulus")
        XCTAssertTrue(key.publicKey.verifyRS256(signature: signature, signedBytes: message))
        XCTAssertEqual(try key.signRS256(message), signature, "PKCS#1 v1.5 is deterministic")
        let empty = try key.signRS256([])
        XCTAssertTrue(key.publicKey.verifyRS256(signature: empty, signedBytes: []))
        XCTAssertFalse(key.publicKey.verifyRS256(signature: empty, signedBytes: message))
        XCTAssertNotEqual(try RSAPrivateKey.generate().publicKey, key.publicKey, "every generated key is new")
    }

    func testAChangedByteAnotherKeyOrATruncatedSignatureFails() throws {
        let key = try anyKey()
        let publicKey = key.publicKey
        let signature = try key.signRS256(message)
        XCTAssertTrue(publicKey.verifyRS256(signature: signature, signedBytes: message))

        for index in message.indices {
            var changed = message
            changed[index] ^= 0x01
            XCTAssertFalse(publicKey.verifyRS256(signature: signature, signedBytes: changed), "message byte \(index)")
        }
        XCTAssertFalse(publicKey.verifyRS256(signature: signature, signedBytes: message + [0]), "a byte more signed")
        XCTAssertFalse(publicKey.verifyRS256(signature: signature, signedBytes: Array(message.dropLast())), "a byte less signed")
        for index in Array(stride(from: 0, to: signature.count, by: 17)) + [signature.count - 1] {
            var tampered = signature
            tampered[index] ^= 0x80
            XCTAssertFalse(publicKey.verifyRS256(signature: tampered, signedBytes: message), "signature byte \(index)")
        }

        let stranger = try RSAPrivateKey.generate()
        XCTAssertFalse(stranger.publicKey.verifyRS256(signature: signature, signedBytes: message), "another key")
        XCTAssertFalse(publicKey.verifyRS256(signature: try stranger.signRS256(message), signedBytes: message), "another signer")

        let malformed: [(String, [UInt8])] = [
            ("truncated by one byte", Array(signature.dropLast())),
            ("first byte dropped", Array(signature.dropFirst())),
            ("half", Array(signature.prefix(128))),
            ("one byte more", signature + [0]),
            ("a zero byte in front", [0] + signature),
            ("empty", []),
            ("all zero", [UInt8](repeating: 0, count: 256)),
            ("all 0xff", [UInt8](repeating: 0xff, count: 256)),
        ]
        for (name, bytes) in malformed {
            XCTAssertFalse(publicKey.verifyRS256(signature: bytes, signedBytes: message), name)
        }
    }

    func testAKnownKeySignsWhatOpenSSLSigned() throws {
        let key = try RSAPrivateKey(pem: pkcs1PrivateKey)
        let expected = try XCTUnwrap(Data(base64Encoded: pkcs1SignatureOfMessage))
        XCTAssertEqual(try key.signRS256(message), Array(expected))
        XCTAssertTrue(key.publicKey.verifyRS256(signature: Array(expected), signedBytes: message))
        XCTAssertEqual(key.publicKey.fingerprint, pkcs1Fingerprint)
    }

    func testOneKeySignsAndVerifiesFromManyThreads() throws {
        let key = try anyKey()
        let publicKey = key.publicKey
        DispatchQueue.concurrentPerform(iterations: 16) { index in
            let data = Array("message \(index)".utf8)
            guard let signature = try? key.signRS256(data) else { return XCTFail("signing failed on iteration \(index)") }
            XCTAssertTrue(publicKey.verifyRS256(signature: signature, signedBytes: data))
            XCTAssertFalse(publicKey.verifyRS256(signature: signature, signedBytes: data + [0x21]))
        }
    }

    // MARK: PEM

    func testPrivateKeyPEMIsPKCS8AsAServiceAccountFileHoldsItAndRoundTrips() throws {
        let key = try anyKey()
        let pem = try key.pkcs8PEM()
        XCTAssertTrue(pem.hasPrefix("-----BEGIN PRIVATE KEY-----\n"), pem)
        XCTAssertTrue(pem.hasSuffix("\n-----END PRIVATE KEY-----\n"), pem)
        XCTAssertFalse(pem.contains("\r"))
        let body = pem.split(separator: "\n").dropFirst().dropLast()
        XCTAssertTrue(body.dropLast().allSatisfy { $0.count == 64 }, "64-character base64 lines")
        XCTAssertTrue(body.allSatisfy { $0.allSatisfy { $0.isLetter || $0.isNumber || "+/=".contains($0) } })

        let reloaded = try RSAPrivateKey(pem: pem)
        XCTAssertEqual(reloaded.publicKey, key.publicKey)
        XCTAssertEqual(reloaded.publicKey.fingerprint, key.publicKey.fingerprint)
        XCTAssertEqual(try reloaded.pkcs8PEM(), pem)
        XCTAssertTrue(key.publicKey.verifyRS256(signature: try reloaded.signRS256(message), signedBytes: message))

        // With the line ends a Windows editor writes, and after a certificate in the same file.
        XCTAssertEqual(try RSAPrivateKey(pem: pem.replacingOccurrences(of: "\n", with: "\r\n")).publicKey, key.publicKey)
        let bundle = try TestCredentials.text("client-app.pem") + pem
        XCTAssertEqual(try RSAPrivateKey(pem: bundle).publicKey, key.publicKey)
    }

    func testPublicKeyPEMRoundTripsAndItsFingerprintIsAMapKey() throws {
        let key = try anyKey()
        let publicKey = key.publicKey
        let pem = try publicKey.spkiPEM()
        XCTAssertTrue(pem.hasPrefix("-----BEGIN PUBLIC KEY-----\n"), pem)
        XCTAssertTrue(pem.hasSuffix("\n-----END PUBLIC KEY-----\n"), pem)
        XCTAssertEqual(try RSAPublicKey(pem: pem), publicKey)
        XCTAssertEqual(try RSAPublicKey(pem: key.pkcs8PEM()), publicKey, "derived from the private key")
        XCTAssertEqual(try RSAPublicKey(derRepresentation: publicKey.derRepresentation), publicKey)
        XCTAssertEqual(try RSAPublicKey(pem: pem).spkiPEM(), pem)

        XCTAssertEqual(publicKey.fingerprint.count, 64)
        XCTAssertTrue(publicKey.fingerprint.allSatisfy { "0123456789abcdef".contains($0) }, publicKey.fingerprint)
        XCTAssertEqual(try RSAPublicKey(pem: pem).fingerprint, publicKey.fingerprint)
        let other = try RSAPrivateKey(pem: pkcs1PrivateKey).publicKey
        XCTAssertNotEqual(other.fingerprint, publicKey.fingerprint)
        let byFingerprint = [publicKey.fingerprint: "generated", other.fingerprint: "pkcs1"]
        XCTAssertEqual(byFingerprint[try RSAPublicKey(pem: key.pkcs8PEM()).fingerprint], "generated")
        XCTAssertEqual(Set([publicKey, try RSAPublicKey(pem: pem), other]).count, 2)
    }

    func testAPKCS1PrivateKeyLoadsAndIsWrittenBackAsPKCS8() throws {
        let key = try RSAPrivateKey(pem: pkcs1PrivateKey)
        XCTAssertEqual(key.publicKey.bitCount, 2048)
        let pkcs8 = try key.pkcs8PEM()
        XCTAssertTrue(pkcs8.hasPrefix("-----BEGIN PRIVATE KEY-----\n"), pkcs8)
        XCTAssertEqual(try RSAPrivateKey(pem: pkcs8).publicKey, key.publicKey)
        XCTAssertEqual(try RSAPublicKey(pem: pkcs1PrivateKey).fingerprint, pkcs1Fingerprint)
    }

    func testPublicKeyFromACertificate() throws {
        // certs/client-app.pem is an RSA 2048 certificate for the key in certs/client-app-key.pem.
        let certificateKey = try RSAPublicKey(pem: TestCredentials.text("client-app.pem"))
        let privateKey = try RSAPrivateKey(contentsOfFile: TestCredentials.path("client-app-key.pem"))
        XCTAssertEqual(certificateKey, privateKey.publicKey)
        XCTAssertEqual(certificateKey.fingerprint, privateKey.publicKey.fingerprint)
        XCTAssertTrue(certificateKey.verifyRS256(signature: try privateKey.signRS256(message), signedBytes: message))
        XCTAssertNotEqual(try RSAPublicKey(pem: TestCredentials.text("client-dev-only.pem")), certificateKey)
    }

    // MARK: Refusals

    func testAP256KeyGivenAsRSAIsRefusedWithTheSentence() throws {
        let p256 = try TestCredentials.text("AuthKey_TESTKEY001.p8")
        let sentence = assertThrows(.notRSAKey(found: "an EC key")) { try RSAPrivateKey(pem: p256) }
        XCTAssertTrue(sentence.hasPrefix("The key is an EC key, but RS256"), sentence)
        XCTAssertTrue(sentence.contains("needs an RSA key"), sentence)
        XCTAssertTrue(sentence.contains("\"private_key\" of a service-account JSON file"), sentence)

        assertThrows(.notRSAKey(found: "an EC key")) { try RSAPublicKey(pem: p256) }
        let p256Public = P256PrivateKey.generate().publicKey
        assertThrows(.notRSAKey(found: "an EC key")) { try RSAPublicKey(pem: p256Public.pemRepresentation) }
        assertThrows(.notRSAKey(found: "an EC key")) { try RSAPublicKey(derRepresentation: p256Public.derRepresentation) }
        // certs/ca.pem is an EC P-256 certificate.
        assertThrows(.notRSAKey(found: "an EC key")) { try RSAPublicKey(pem: TestCredentials.text("ca.pem")) }
        // And the other way round: the RSA service-account key is no APNs key.
        XCTAssertThrowsError(try P256PrivateKey(pemRepresentation: try anyKey().pkcs8PEM()))
    }

    func testTextThatIsNoRSAKeyIsInvalidPEM() throws {
        let cases = [
            "",
            "hello",
            "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n",
            "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\n-----END RSA PRIVATE KEY-----\n",
        ]
        for text in cases {
            XCTAssertThrowsError(try RSAPrivateKey(pem: text)) { error in
                guard case .invalidPEM(expected: "RSA private key", _)? = error as? CryptoError else { return XCTFail("\(error)") }
                XCTAssertTrue("\(error)".hasPrefix("Expected a PEM RSA private key"), "\(error)")
            }
            XCTAssertThrowsError(try RSAPublicKey(pem: text)) { error in
                guard case .invalidPEM? = error as? CryptoError else { return XCTFail("\(error)") }
            }
        }
        let request = "-----BEGIN CERTIFICATE REQUEST-----\nAAAA\n-----END CERTIFICATE REQUEST-----\n"
        let sentence = assertThrows(.invalidPEM(
            expected: "RSA key or certificate",
            openSSL: "its blocks are CERTIFICATE REQUEST; none is PUBLIC KEY, PRIVATE KEY, RSA PRIVATE KEY or CERTIFICATE")) {
            try RSAPublicKey(pem: request)
        }
        XCTAssertTrue(sentence.contains("CERTIFICATE REQUEST"), sentence)
        assertThrows(.invalidPEM(expected: "RSA key or certificate", openSSL: "there is no -----BEGIN …----- line")) {
            try RSAPublicKey(pem: "hello")
        }
        XCTAssertThrowsError(try RSAPublicKey(derRepresentation: [0x30, 0x03, 0x02, 0x01, 0x00])) { error in
            guard case .invalidDER? = error as? CryptoError else { return XCTFail("\(error)") }
        }
    }

    func testAKeyCopiedOutOfAJSONStringIsNamedAsSuch() throws {
        let escaped = try anyKey().pkcs8PEM().replacingOccurrences(of: "\n", with: "\\n")
        let sentence = assertThrows(.escapedPEM(expected: "RSA private key")) { try RSAPrivateKey(pem: escaped) }
        XCTAssertTrue(sentence.contains("the two characters \\n where its line breaks belong"), sentence)
        assertThrows(.escapedPEM(expected: "RSA private key")) { try RSAPublicKey(pem: escaped) }
        assertThrows(.escapedPEM(expected: "RSA private key")) { try RSAPrivateKey(pem: escaped + "\n") }
        let escapedPublic = try anyKey().publicKey.spkiPEM().replacingOccurrences(of: "\n", with: "\\n")
        assertThrows(.escapedPEM(expected: "RSA public key")) { try RSAPublicKey(pem: escapedPublic) }
        let escapedCertificate = try TestCredentials.text("client-app.pem").replacingOccurrences(of: "\n", with: "\\n")
        assertThrows(.escapedPEM(expected: "certificate")) { try RSAPublicKey(pem: escapedCertificate) }
    }

    func testAMissingFileIsReportedWithItsPath() {
        XCTAssertThrowsError(try RSAPrivateKey(contentsOfFile: "/nonexistent/service-account-key.pem")) { error in
            guard case .fileUnreadable(let path, _)? = error as? CryptoError else { return XCTFail("\(error)") }
            XCTAssertEqual(path, "/nonexistent/service-account-key.pem")
        }
    }
}
