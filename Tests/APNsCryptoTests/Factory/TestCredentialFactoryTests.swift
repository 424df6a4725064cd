@testable import APNsCrypto
import XCTest

final class TestCredentialFactoryTests: XCTestCase {
    private typealias Topic = APNsClientCertificate.Topic
    private let start: Int64 = 1_767_225_600  // 2026-01-01T00:00:00Z

    func testClientCertificateCarriesUIDTopicsAndEnvironments() throws {
        let ca = try TestCredentialFactory.makeCertificateAuthority(notBefore: start)
        let topics = [Topic(name: "org.sample.watch", kind: "app"), Topic(name: "org.sample.watch.complication", kind: "complication"),
                      Topic(name: "org.sample.watch.voip-ptt", kind: "ptt")]
        let cases: [(development: Bool, production: Bool)] = [(true, true), (true, false), (false, true), (false, false)]
        for (development, production) in cases {
            let issued = try TestCredentialFactory.makeClientCertificate(
                bundleID: "org.sample.watch", topics: topics, development: development, production: production,
                issuer: ca, notBefore: start, days: 365)
            let certificate = try issued.parsed()
            XCTAssertEqual(certificate.subjectUID, "org.sample.watch")
            XCTAssertEqual(certificate.commonName, "Apple Push Services: org.sample.watch")
            XCTAssertEqual(certificate.topics, topics)
            XCTAssertEqual(certificate.allowsDevelopment, development)
            XCTAssertEqual(certificate.allowsProduction, production)
            XCTAssertEqual(certificate.notBefore, start)
            XCTAssertEqual(certificate.notAfter, start + 365 * 86_400)
            XCTAssertTrue(issued.handle.matches(privateKey: issued.privateKey))
            XCTAssertEqual(try APNsClientCertificate(pemRepresentation: issued.certificatePEM).derRepresentation,
                           certificate.derRepresentation)
        }
    }

    func testClientCertificateWithoutTopicsHasNoTopicsExtension() throws {
        let ca = try TestCredentialFactory.makeCertificateAuthority(notBefore: start)
        let issued = try TestCredentialFactory.makeClientCertificate(bundleID: "org.sample.solo", topics: [], issuer: ca, notBefore: start)
        let certificate = try issued.parsed()
        XCTAssertEqual(certificate.subjectUID, "org.sample.solo")
        XCTAssertEqual(certificate.topics, [])
        XCTAssertNil(APNsCertificateOID.topics.find(in: issued.handle.pointer))
        XCTAssertTrue(certificate.allowsDevelopment && certificate.allowsProduction)
    }

    func testTrustFollowsTheIssuer() throws {
        let ca = try TestCredentialFactory.makeCertificateAuthority(notBefore: start)
        let other = try TestCredentialFactory.makeCertificateAuthority(commonName: "Other", notBefore: start)
        let client = try TestCredentialFactory.makeClientCertificate(
            bundleID: "org.sample.app", topics: [Topic(name: "org.sample.app", kind: "app")], issuer: ca, notBefore: start, days: 30
        ).parsed()
        let store = try CertificateTrustStore(caPEM: ca.certificatePEM)
        XCTAssertTrue(store.isTrusted(client, at: start + 86_400))
        XCTAssertFalse(store.isTrusted(client, at: start + 31 * 86_400))
        XCTAssertFalse(try CertificateTrustStore(caPEM: other.certificatePEM).isTrusted(client, at: start + 86_400))
    }

    func testServerCertificateCoversItsHostsOnly() throws {
        let ca = try TestCredentialFactory.makeCertificateAuthority(notBefore: start)
        let server = try TestCredentialFactory.makeServerCertificate(issuer: ca, notBefore: start)
        for host in ["localhost", "127.0.0.1", "::1"] {
            XCTAssertTrue(server.handle.matches(host: host), host)
        }
        for host in ["example.com", "127.0.0.2", "::2"] {
            XCTAssertFalse(server.handle.matches(host: host), host)
        }
        XCTAssertTrue(server.handle.matches(privateKey: server.privateKey))
        XCTAssertFalse(server.handle.matches(privateKey: ca.privateKey))
        let store = try CertificateTrustStore(caPEM: ca.certificatePEM)
        XCTAssertFalse(store.isTrusted(try server.parsed(), at: start + 1), "a server certificate is not a client certificate")
    }

    func testUnsafeValuesAreRefused() throws {
        let ca = try TestCredentialFactory.makeCertificateAuthority(notBefore: start)
        let badTopics = ["", "com.example app", "com.example\nkind = UTF8:x", "com.$HOME", "com.example#x"]
        for name in badTopics {
            XCTAssertThrowsError(try TestCredentialFactory.makeClientCertificate(
                bundleID: "com.example", topics: [Topic(name: name, kind: "app")], issuer: ca, notBefore: start), name
            ) { error in
                guard case .invalidArgument? = error as? CryptoError else { return XCTFail("\(name): \(error)") }
            }
        }
        XCTAssertThrowsError(try TestCredentialFactory.makeServerCertificate(hosts: ["bad host"], issuer: ca, notBefore: start))
        XCTAssertThrowsError(try TestCredentialFactory.makeServerCertificate(hosts: [], issuer: ca, notBefore: start))
        XCTAssertThrowsError(try TestCredentialFactory.makeCertificateAuthority(notBefore: start, days: 0))
    }

    func testStandardFilesMatchTheCommittedLayout() throws {
        let files = try TestCredentialFactory.makeStandardFiles(now: start)
        let byName = Dictionary(uniqueKeysWithValues: files.map { ($0.name, $0.contents) })
        let committed = try FileManager.default.contentsOfDirectory(atPath: TestCredentials.directory.path)
            .filter { $0 != "generate.sh" && $0 != "README.md" }
        XCTAssertEqual(Set(byName.keys), Set(committed))

        let generatedKeys = try JSONDecoder().decode([TestCredentials.KeyEntry].self, from: Data(byName["keys.json", default: ""].utf8))
        XCTAssertEqual(generatedKeys, try TestCredentials.keys())
        for entry in generatedKeys {
            _ = try P256PrivateKey(pemRepresentation: byName[entry.file, default: ""])
        }

        let store = try CertificateTrustStore(caPEM: byName["ca.pem", default: ""])
        for (file, trusted) in [("client-app.pem", true), ("client-dev-only.pem", true),
                                ("client-single-topic.pem", true), ("client-untrusted.pem", false)] {
            let generated = try APNsClientCertificate(pemRepresentation: byName[file, default: ""])
            let reference = try APNsClientCertificate(pemRepresentation: TestCredentials.text(file))
            XCTAssertEqual(store.isTrusted(generated, at: start + 1), trusted, file)
            XCTAssertEqual(generated.subjectUID, reference.subjectUID, file)
            XCTAssertEqual(generated.commonName, reference.commonName, file)
            XCTAssertEqual(generated.topics, reference.topics, file)
            XCTAssertEqual(generated.allowsDevelopment, reference.allowsDevelopment, file)
            XCTAssertEqual(generated.allowsProduction, reference.allowsProduction, file)
            for oid in APNsCertificateOID.allCases {
                XCTAssertEqual(oid.contents(in: generated.handle.pointer), oid.contents(in: reference.handle.pointer),
                               "\(file) \(oid.rawValue): same DER as certs/generate.sh writes")
            }
            _ = try P256PrivateKey(pemRepresentation: byName[file.replacingOccurrences(of: ".pem", with: "-key.pem"), default: ""])
        }
    }
}
