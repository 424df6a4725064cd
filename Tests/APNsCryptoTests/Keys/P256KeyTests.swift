import APNsCrypto
import XCTest

final class P256KeyTests: XCTestCase {
    /// A SEC1 key as `openssl ecparam -genkey` writes it (EC PARAMETERS block first), and its public key.
    private let sec1PrivateKey = """
        -----BEGIN EC PARAMETERS-----
        BggqhkjOPQMBBw==
        -----END EC PARAMETERS-----
        -----BEGIN EC PRIVATE KEY-----
        MHcCAQEEIEZ1T07vxwiiSEM8snd5tpL4JZ4KLEgfmhpZkhWvIL6AoAoGCCqGSM49
        AwEHoUQDQgAErmNNBCDPc2uq6Omvaqww0GWHEuzxzcOhE4j5Ar68XWzNUHyxFGsg
        EBiKQP2PQW+MvGIPmUt2wyl3o6N8uy5TmA==
        -----END EC PRIVATE KEY-----
        """
    private let sec1PublicKey = """
        -----BEGIN PUBLIC KEY-----
        MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAErmNNBCDPc2uq6Omvaqww0GWHEuzx
        zcOhE4j5Ar68XWzNUHyxFGsgEBiKQP2PQW+MvGIPmUt2wyl3o6N8uy5TmA==
        -----END PUBLIC KEY-----
        """
    /// A P-384 key: valid EC, wrong curve for ES256.
    private let p384PrivateKey = """
        -----BEGIN PRIVATE KEY-----
        MIG2AgEAMBAGByqGSM49AgEGBSuBBAAiBIGeMIGbAgEBBDD0T38oWH4Ago3I19vf
        qdWs5wQaZZFakXgK6mcDc+KH8sb2fyutwMmbt52vyTJrGXuhZANiAASgio0nlTYF
        xevKNbb3qYDS1VpjgbeoPZtDf/RIppL8KxmVU2kG/bWF3cPsROYu6j/M3ImyAK/+
        UK42+iW6bi9cyERLOynpzxIjJFurOaefzzspgIPsaHxz/aONDl96RQU=
        -----END PRIVATE KEY-----
        """

    /// A P-256 key encrypted with the passphrase "secret": must be refused, never prompt.
    private let encryptedPrivateKey = """
        -----BEGIN ENCRYPTED PRIVATE KEY-----
        MIHsMFcGCSqGSIb3DQEFDTBKMCkGCSqGSIb3DQEFDDAcBAjN0OQrmAS9IAICCAAw
        DAYIKoZIhvcNAgkFADAdBglghkgBZQMEAQIEEAh3xXbDC0HNIYY7MkZMJUIEgZCO
        VaZb6zycl+eHQnM/UNqrg34IOw/f2s/AK14wedlPQppEsjt0/5a7ROrEzceF0uI5
        2f2luX2/3BIo5INZEJe8C9Mbr8tf4pEspL38oWuNem+EWBN4jWuvR1Eh8Ee5tlOY
        y2sc26Nlo9Vh3exdPgErkWMFovuk8DaFFO4vPSEp+KEciRZBbjUvsMDhf5Cwzz8=
        -----END ENCRYPTED PRIVATE KEY-----
        """

    private let message = Array("header.claims".utf8)

    func testSignatureIsRawSixtyFourBytesAndVerifies() throws {
        let key = P256PrivateKey.generate()
        let signature = try key.signature(for: message)
        XCTAssertEqual(signature.count, 64)
        XCTAssertTrue(key.publicKey.isValidSignature(signature, for: message))
    }

    func testDERSignatureAlsoVerifies() throws {
        let key = P256PrivateKey.generate()
        let der = try key.derSignature(for: message)
        XCTAssertEqual(der.first, 0x30, "DER ECDSA-Sig-Value starts with a SEQUENCE tag")
        XCTAssertNotEqual(der.count, 64)
        XCTAssertTrue(key.publicKey.isValidSignature(der, for: message))
    }

    func testSignatureOverOtherDataFails() throws {
        let key = P256PrivateKey.generate()
        let signature = try key.signature(for: message)
        XCTAssertFalse(key.publicKey.isValidSignature(signature, for: Array("header.claimz".utf8)))
    }

    func testEverySingleBitFlipInTheSignatureFails() throws {
        let key = P256PrivateKey.generate()
        let signature = try key.signature(for: message)
        for index in stride(from: 0, to: 64, by: 7) {
            var tampered = signature
            tampered[index] ^= 0x01
            XCTAssertFalse(key.publicKey.isValidSignature(tampered, for: message), "byte \(index)")
        }
    }

    func testMalformedSignaturesFailWithoutCrashing() throws {
        let key = P256PrivateKey.generate()
        let cases: [(String, [UInt8])] = [
            ("empty", []),
            ("too short", [UInt8](repeating: 1, count: 63)),
            ("too long", [UInt8](repeating: 1, count: 65)),
            ("all zero raw", [UInt8](repeating: 0, count: 64)),
            ("truncated DER", Array(try key.derSignature(for: message).dropLast())),
            ("SEQUENCE tag only", [0x30]),
        ]
        for (name, signature) in cases {
            XCTAssertFalse(key.publicKey.isValidSignature(signature, for: message), name)
        }
    }

    func testAnotherKeyDoesNotVerify() throws {
        let signer = P256PrivateKey.generate()
        let other = P256PrivateKey.generate()
        let signature = try signer.signature(for: message)
        XCTAssertFalse(other.publicKey.isValidSignature(signature, for: message))
    }

    func testPrivateKeyPEMRoundTripKeepsTheKey() throws {
        let key = P256PrivateKey.generate()
        let pem = key.pemRepresentation
        XCTAssertTrue(pem.hasPrefix("-----BEGIN PRIVATE KEY-----"), pem)
        let reloaded = try P256PrivateKey(pemRepresentation: pem)
        XCTAssertEqual(reloaded.publicKey, key.publicKey)
        XCTAssertTrue(key.publicKey.isValidSignature(try reloaded.signature(for: message), for: message))
    }

    func testPublicKeyPEMRoundTrip() throws {
        let key = P256PrivateKey.generate().publicKey
        let pem = key.pemRepresentation
        XCTAssertTrue(pem.hasPrefix("-----BEGIN PUBLIC KEY-----"), pem)
        XCTAssertEqual(try P256PublicKey(pemRepresentation: pem), key)
        XCTAssertEqual(try P256PublicKey(derRepresentation: key.derRepresentation), key)
        XCTAssertNotEqual(P256PrivateKey.generate().publicKey, key)
    }

    func testSEC1PrivateKeyLoadsAndMatchesItsPublicKey() throws {
        let key = try P256PrivateKey(pemRepresentation: sec1PrivateKey)
        let publicKey = try P256PublicKey(pemRepresentation: sec1PublicKey)
        XCTAssertEqual(key.publicKey, publicKey)
        XCTAssertTrue(publicKey.isValidSignature(try key.signature(for: message), for: message))
    }

    func testKeysThatAreNotP256AreRefused() throws {
        XCTAssertThrowsError(try P256PrivateKey(pemRepresentation: p384PrivateKey)) { error in
            guard case .unsupportedKey(let found)? = error as? CryptoError else { return XCTFail("\(error)") }
            XCTAssertTrue(found.contains("secp384r1"), found)
        }
        let rsa = try TestCredentials.text("client-app-key.pem")
        XCTAssertThrowsError(try P256PrivateKey(pemRepresentation: rsa)) { error in
            guard case .unsupportedKey? = error as? CryptoError else { return XCTFail("\(error)") }
        }
    }

    func testEncryptedKeyIsRefusedWithoutPrompting() {
        XCTAssertThrowsError(try P256PrivateKey(pemRepresentation: encryptedPrivateKey)) { error in
            guard case .invalidPEM? = error as? CryptoError else { return XCTFail("\(error)") }
        }
    }

    func testOneKeySignsAndVerifiesFromManyThreads() throws {
        let key = try P256PrivateKey(contentsOfFile: TestCredentials.path("AuthKey_TESTKEY001.p8"))
        let publicKey = key.publicKey
        let wrongKey = P256PrivateKey.generate().publicKey
        DispatchQueue.concurrentPerform(iterations: 32) { index in
            let data = Array("message \(index)".utf8)
            guard let signature = try? key.signature(for: data) else { return XCTFail("signing failed on iteration \(index)") }
            XCTAssertTrue(publicKey.isValidSignature(signature, for: data))
            XCTAssertFalse(wrongKey.isValidSignature(signature, for: data))
        }
    }

    func testGarbageIsInvalidPEM() {
        for text in ["", "hello", "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n"] {
            XCTAssertThrowsError(try P256PrivateKey(pemRepresentation: text)) { error in
                guard case .invalidPEM? = error as? CryptoError else { return XCTFail("\(error)") }
            }
            XCTAssertThrowsError(try P256PublicKey(pemRepresentation: text))
        }
    }

    func testMissingFileIsReportedWithItsPath() {
        XCTAssertThrowsError(try P256PrivateKey(contentsOfFile: "/nonexistent/AuthKey_NOPE.p8")) { error in
            guard case .fileUnreadable(let path, _)? = error as? CryptoError else { return XCTFail("\(error)") }
            XCTAssertEqual(path, "/nonexistent/AuthKey_NOPE.p8")
            XCTAssertTrue("\(error)".contains("/nonexistent/AuthKey_NOPE.p8"))
        }
    }

    func testEveryKeyInKeysJSONLoadsAndSigns() throws {
        let entries = try TestCredentials.keys()
        XCTAssertEqual(Set(entries.map(\.key_id)), ["TESTKEY001", "OTHERKEY01", "DEVKEY0001", "PRODKEY001", "TOPICKEY01"])
        var publicKeys: [P256PublicKey] = []
        for entry in entries {
            XCTAssertEqual(entry.key_id.count, 10, entry.key_id)
            XCTAssertEqual(entry.team_id.count, 10, entry.team_id)
            XCTAssertEqual(entry.file, "AuthKey_\(entry.key_id).p8")
            XCTAssertTrue(["both", "development", "production"].contains(entry.environment), entry.environment)
            XCTAssertTrue(try TestCredentials.text(entry.file).hasPrefix("-----BEGIN PRIVATE KEY-----"), entry.file)
            let key = try P256PrivateKey(contentsOfFile: TestCredentials.path(entry.file))
            XCTAssertTrue(key.publicKey.isValidSignature(try key.signature(for: message), for: message), entry.file)
            publicKeys.append(key.publicKey)
        }
        for (index, key) in publicKeys.enumerated() {
            XCTAssertFalse(publicKeys[(index + 1)...].contains(key), "keys.json files must hold distinct keys")
        }
    }
}
