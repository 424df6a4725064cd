import APNsCrypto
import Foundation
import XCTest

/// RSA keys and RS256 signatures exchanged with the `openssl` command line, both ways: its keys and signatures read
/// and checked by this module, this module's keys and signatures read and checked by it.
final class RSAOpenSSLPeerTests: XCTestCase {
    private let message = Array(#"{"alg":"RS256","typ":"JWT"}.{"iss":"a@b.iam.gserviceaccount.com"}"#.utf8)

    func testAKeyFromOpenSSLGenpkeyAndItsSignaturesWorkBothWays() throws {
        let openssl = try OpenSSLCommand(for: self)
        try openssl.succeed(["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", "key.pem"])
        try openssl.succeed(["pkey", "-in", "key.pem", "-pubout", "-out", "public.pem"])
        try openssl.write("message", message)
        try openssl.succeed(["dgst", "-sha256", "-sign", "key.pem", "-out", "openssl.sig", "message"])

        let keyPEM = try openssl.text("key.pem")
        XCTAssertTrue(keyPEM.hasPrefix("-----BEGIN PRIVATE KEY-----"), keyPEM)
        let key = try RSAPrivateKey(pem: keyPEM)
        let publicKey = try RSAPublicKey(pem: openssl.text("public.pem"))
        XCTAssertEqual(key.publicKey, publicKey)

        // openssl's signature verifies here, and is the very bytes this module signs (PKCS#1 v1.5 is deterministic).
        let theirs = try openssl.bytes("openssl.sig")
        XCTAssertTrue(publicKey.verifyRS256(signature: theirs, signedBytes: message))
        XCTAssertFalse(publicKey.verifyRS256(signature: theirs, signedBytes: message + [0x20]))
        let ours = try key.signRS256(message)
        XCTAssertEqual(ours, theirs)

        // This module's signature verifies with openssl; with one byte changed it does not.
        try openssl.write("ours.sig", ours)
        let verified = try openssl.succeed(["dgst", "-sha256", "-verify", "public.pem", "-signature", "ours.sig", "message"])
        XCTAssertTrue(verified.contains("Verified OK"), verified)
        var tampered = ours
        tampered[100] ^= 0x01
        try openssl.write("tampered.sig", tampered)
        let refused = try openssl.run(["dgst", "-sha256", "-verify", "public.pem", "-signature", "tampered.sig", "message"])
        XCTAssertNotEqual(refused.status, 0, refused.output)
        XCTAssertTrue(refused.output.lowercased().contains("verification failure"), refused.output)
    }

    func testOurKeysAndPublicKeysAreReadByOpenSSL() throws {
        let openssl = try OpenSSLCommand(for: self)
        let key = try RSAPrivateKey.generate()
        try openssl.write("ours.pem", Array(try key.pkcs8PEM().utf8))
        let check = try openssl.succeed(["rsa", "-in", "ours.pem", "-check", "-noout"])
        XCTAssertTrue(check.contains("RSA key ok"), check)
        let text = try openssl.succeed(["pkey", "-in", "ours.pem", "-noout", "-text"])
        XCTAssertTrue(text.contains("2048 bit"), text)
        XCTAssertTrue(text.contains("publicExponent: 65537"), text)

        // openssl derives the same SubjectPublicKeyInfo, in PEM and DER, and the same fingerprint.
        try openssl.succeed(["pkey", "-in", "ours.pem", "-pubout", "-out", "public.pem"])
        XCTAssertEqual(try openssl.text("public.pem"), try key.publicKey.spkiPEM())
        try openssl.succeed(["pkey", "-in", "ours.pem", "-pubout", "-outform", "DER", "-out", "public.der"])
        XCTAssertEqual(try openssl.bytes("public.der"), key.publicKey.derRepresentation)
        let digest = try openssl.succeed(["dgst", "-sha256", "-r", "public.der"])
        XCTAssertEqual(digest.split(separator: " ").first.map(String.init), key.publicKey.fingerprint, digest)

        // And our public key PEM is one openssl verifies with.
        try openssl.write("public-ours.pem", Array(try key.publicKey.spkiPEM().utf8))
        try openssl.write("message", message)
        try openssl.write("ours.sig", try key.signRS256(message))
        let verified = try openssl.succeed(["dgst", "-sha256", "-verify", "public-ours.pem", "-signature", "ours.sig", "message"])
        XCTAssertTrue(verified.contains("Verified OK"), verified)
    }

    func testACertificatesKeyIsTheOneOpenSSLReadsFromIt() throws {
        let openssl = try OpenSSLCommand(for: self)
        let certificate = TestCredentials.path("client-app.pem")
        let publicPEM = try openssl.succeed(["x509", "-in", certificate, "-pubkey", "-noout"])
        let fromCertificate = try RSAPublicKey(pem: TestCredentials.text("client-app.pem"))
        XCTAssertEqual(try RSAPublicKey(pem: publicPEM), fromCertificate)
        XCTAssertEqual(try fromCertificate.spkiPEM(), publicPEM)
    }

    func testPKCS1FromOpenSSLLoads() throws {
        let openssl = try OpenSSLCommand(for: self)
        try openssl.succeed(["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", "key.pem"])
        // OpenSSL 3 writes PKCS#1 with -traditional; LibreSSL's rsa writes it by default.
        if try openssl.run(["pkey", "-in", "key.pem", "-traditional", "-out", "pkcs1.pem"]).status != 0 {
            try openssl.succeed(["rsa", "-in", "key.pem", "-out", "pkcs1.pem"])
        }
        let pkcs1 = try openssl.text("pkcs1.pem")
        XCTAssertTrue(pkcs1.hasPrefix("-----BEGIN RSA PRIVATE KEY-----"), pkcs1)
        let key = try RSAPrivateKey(pem: pkcs1)
        XCTAssertEqual(key.publicKey, try RSAPrivateKey(pem: openssl.text("key.pem")).publicKey)
        XCTAssertEqual(try RSAPublicKey(pem: pkcs1), key.publicKey)
    }

    func testSmallEncryptedAndPSSKeysAreRefused() throws {
        let openssl = try OpenSSLCommand(for: self)
        try openssl.succeed(["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:1024", "-out", "small.pem"])
        XCTAssertThrowsError(try RSAPrivateKey(pem: openssl.text("small.pem"))) { error in
            XCTAssertEqual(error as? CryptoError, .rsaKeyTooSmall(bits: 1024))
            XCTAssertTrue("\(error)".contains("at least 2048"), "\(error)")
        }
        try openssl.succeed(["pkey", "-in", "small.pem", "-pubout", "-out", "small-public.pem"])
        XCTAssertThrowsError(try RSAPublicKey(pem: openssl.text("small-public.pem"))) { error in
            XCTAssertEqual(error as? CryptoError, .rsaKeyTooSmall(bits: 1024))
        }

        try openssl.succeed(["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", "key.pem"])
        try openssl.succeed(["pkey", "-in", "key.pem", "-aes256", "-passout", "pass:secret", "-out", "encrypted.pem"])
        let encrypted = try openssl.text("encrypted.pem")
        XCTAssertTrue(encrypted.hasPrefix("-----BEGIN ENCRYPTED PRIVATE KEY-----"), encrypted)
        let loads: [() throws -> Void] = [{ _ = try RSAPrivateKey(pem: encrypted) }, { _ = try RSAPublicKey(pem: encrypted) }]
        for load in loads {
            XCTAssertThrowsError(try load()) { error in
                guard case .invalidPEM? = error as? CryptoError else { return XCTFail("\(error)") }
                XCTAssertTrue("\(error)".contains("not encrypted"), "\(error)")
            }
        }

        // An RSA-PSS key (id-RSASSA-PSS) may not make PKCS#1 v1.5 signatures. LibreSSL cannot make one: skip there.
        guard try openssl.run(["genpkey", "-algorithm", "RSA-PSS", "-pkeyopt", "rsa_keygen_bits:2048", "-out", "pss.pem"]).status == 0
        else { return }
        XCTAssertThrowsError(try RSAPrivateKey(pem: openssl.text("pss.pem"))) { error in
            XCTAssertEqual(error as? CryptoError, .notRSAKey(found: "an RSA-PSS key"))
        }
    }
}
