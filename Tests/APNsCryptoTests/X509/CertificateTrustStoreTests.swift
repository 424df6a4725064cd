import APNsCrypto
import XCTest

final class CertificateTrustStoreTests: XCTestCase {
    private func certificate(_ file: String) throws -> APNsClientCertificate {
        try APNsClientCertificate(pemRepresentation: TestCredentials.text(file))
    }

    private var now: Int64 { Int64(Date().timeIntervalSince1970) }

    func testClientCertificatesFromTheTestCAAreTrusted() throws {
        let store = try CertificateTrustStore(caPEM: TestCredentials.text("ca.pem"))
        for file in ["client-app.pem", "client-dev-only.pem", "client-single-topic.pem"] {
            let candidate = try certificate(file)
            XCTAssertTrue(store.isTrusted(candidate, at: now), file)
            XCTAssertNil(store.untrustedReason(candidate, at: now), file)
        }
    }

    func testCertificateFromAnotherCAIsNotTrusted() throws {
        let store = try CertificateTrustStore(caPEM: TestCredentials.text("ca.pem"))
        let stranger = try certificate("client-untrusted.pem")
        XCTAssertFalse(store.isTrusted(stranger, at: now))
        let reason = try XCTUnwrap(store.untrustedReason(stranger, at: now))
        XCTAssertTrue(reason.contains("issuer"), reason)
    }

    func testValidityWindowIsEnforced() throws {
        let store = try CertificateTrustStore(caPEM: TestCredentials.text("ca.pem"))
        let candidate = try certificate("client-app.pem")
        XCTAssertTrue(store.isTrusted(candidate, at: candidate.notAfter - 1))
        XCTAssertTrue(store.isTrusted(candidate, at: candidate.notBefore + 1))
        XCTAssertFalse(store.isTrusted(candidate, at: candidate.notAfter + 1))
        XCTAssertEqual(store.untrustedReason(candidate, at: candidate.notAfter + 1), "certificate has expired")
        XCTAssertFalse(store.isTrusted(candidate, at: candidate.notBefore - 1))
        XCTAssertEqual(store.untrustedReason(candidate, at: candidate.notBefore - 1), "certificate is not yet valid")
    }

    func testServerCertificateIsNotAClientCertificate() throws {
        let store = try CertificateTrustStore(caPEM: TestCredentials.text("ca.pem"))
        XCTAssertFalse(store.isTrusted(try certificate("server.pem"), at: now))
    }

    func testBundleOfSeveralCAsTrustsEach() throws {
        let bundle = try TestCredentials.text("ca.pem") + TestCredentials.text("untrusted-ca.pem")
        let store = try CertificateTrustStore(caPEM: bundle)
        XCTAssertTrue(store.isTrusted(try certificate("client-app.pem"), at: now))
        XCTAssertTrue(store.isTrusted(try certificate("client-untrusted.pem"), at: now))

        let otherOnly = try CertificateTrustStore(caPEM: TestCredentials.text("untrusted-ca.pem"))
        XCTAssertTrue(otherOnly.isTrusted(try certificate("client-untrusted.pem"), at: now))
        XCTAssertFalse(otherOnly.isTrusted(try certificate("client-app.pem"), at: now))
    }

    func testStoreNeedsAtLeastOneCertificate() throws {
        XCTAssertThrowsError(try CertificateTrustStore(caPEM: "")) { error in
            XCTAssertEqual(error as? CryptoError, .noCertificates)
        }
        XCTAssertThrowsError(try CertificateTrustStore(caPEM: TestCredentials.text("AuthKey_TESTKEY001.p8"))) { error in
            XCTAssertEqual(error as? CryptoError, .noCertificates)
        }
        let broken = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n"
        XCTAssertThrowsError(try CertificateTrustStore(caPEM: broken)) { error in
            guard case .invalidPEM? = error as? CryptoError else { return XCTFail("\(error)") }
        }
    }

    func testConcurrentChecksAgree() throws {
        let store = try CertificateTrustStore(caPEM: TestCredentials.text("ca.pem"))
        let trusted = try certificate("client-app.pem")
        let stranger = try certificate("client-untrusted.pem")
        let time = now
        DispatchQueue.concurrentPerform(iterations: 64) { index in
            if index.isMultiple(of: 2) {
                XCTAssertTrue(store.isTrusted(trusted, at: time))
            } else {
                XCTAssertFalse(store.isTrusted(stranger, at: time))
            }
        }
    }
}
