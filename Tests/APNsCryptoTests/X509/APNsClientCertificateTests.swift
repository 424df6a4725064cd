import APNsCrypto
import XCTest

final class APNsClientCertificateTests: XCTestCase {
    private typealias Topic = APNsClientCertificate.Topic

    private let appTopics = [
        Topic(name: "com.example.app", kind: "app"),
        Topic(name: "com.example.app.voip", kind: "voip"),
        Topic(name: "com.example.app.complication", kind: "complication"),
    ]

    private struct Expectation {
        let file: String
        let uid: String?
        let commonName: String?
        let topics: [Topic]
        let development: Bool
        let production: Bool
        let lifetimeDays: Int64
    }

    private var expectations: [Expectation] {
        [
            Expectation(file: "client-app.pem", uid: "com.example.app", commonName: "Apple Push Services: com.example.app",
                        topics: appTopics, development: true, production: true, lifetimeDays: 3650),
            Expectation(file: "client-dev-only.pem", uid: "com.example.app",
                        commonName: "Apple Development IOS Push Services: com.example.app",
                        topics: appTopics, development: true, production: false, lifetimeDays: 3650),
            Expectation(file: "client-single-topic.pem", uid: "com.example.single",
                        commonName: "Apple Push Services: com.example.single",
                        topics: [], development: true, production: true, lifetimeDays: 3650),
            Expectation(file: "client-untrusted.pem", uid: "com.example.app", commonName: "Apple Push Services: com.example.app",
                        topics: appTopics, development: true, production: true, lifetimeDays: 3650),
            Expectation(file: "server.pem", uid: nil, commonName: "localhost",
                        topics: [], development: false, production: false, lifetimeDays: 3650),
            Expectation(file: "ca.pem", uid: nil, commonName: "MockAPNs Test CA",
                        topics: [], development: false, production: false, lifetimeDays: 7305),
        ]
    }

    func testParsesEveryGeneratedCertificate() throws {
        let now = Int64(Date().timeIntervalSince1970)
        for expected in expectations {
            let certificate = try APNsClientCertificate(pemRepresentation: TestCredentials.text(expected.file))
            XCTAssertEqual(certificate.subjectUID, expected.uid, expected.file)
            XCTAssertEqual(certificate.commonName, expected.commonName, expected.file)
            XCTAssertEqual(certificate.topics, expected.topics, expected.file)
            XCTAssertEqual(certificate.allowsDevelopment, expected.development, expected.file)
            XCTAssertEqual(certificate.allowsProduction, expected.production, expected.file)
            XCTAssertEqual(certificate.notAfter - certificate.notBefore, expected.lifetimeDays * 86_400, expected.file)
            XCTAssertLessThanOrEqual(certificate.notBefore, now, expected.file)
            XCTAssertGreaterThan(certificate.notBefore, 1_735_689_600, "\(expected.file) was made before 2025")
        }
    }

    func testDERAndPEMRoundTrips() throws {
        let original = try APNsClientCertificate(pemRepresentation: TestCredentials.text("client-app.pem"))
        XCTAssertEqual(original.derRepresentation.first, 0x30)
        let fromDER = try APNsClientCertificate(derRepresentation: original.derRepresentation)
        let fromPEM = try APNsClientCertificate(pemRepresentation: original.pemRepresentation)
        for copy in [fromDER, fromPEM] {
            XCTAssertEqual(copy.derRepresentation, original.derRepresentation)
            XCTAssertEqual(copy.topics, original.topics)
            XCTAssertEqual(copy.subjectUID, original.subjectUID)
            XCTAssertEqual(copy.notAfter, original.notAfter)
        }
    }

    func testInvalidInputIsRefused() throws {
        let der = try APNsClientCertificate(pemRepresentation: TestCredentials.text("client-app.pem")).derRepresentation
        let badDER: [(String, [UInt8])] = [
            ("empty", []),
            ("garbage", [0x01, 0x02, 0x03]),
            ("truncated", Array(der.dropLast(10))),
            ("trailing bytes", der + [0x00]),
        ]
        for (name, bytes) in badDER {
            XCTAssertThrowsError(try APNsClientCertificate(derRepresentation: bytes), name) { error in
                guard case .invalidDER? = error as? CryptoError else { return XCTFail("\(name): \(error)") }
            }
        }
        XCTAssertThrowsError(try APNsClientCertificate(pemRepresentation: TestCredentials.text("AuthKey_TESTKEY001.p8"))) { error in
            guard case .invalidPEM? = error as? CryptoError else { return XCTFail("\(error)") }
        }
    }
}
