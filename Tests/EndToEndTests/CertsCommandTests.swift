import APNsCrypto
import Foundation
import XCTest

/// `mockapns certs`: fresh credentials that parse and chain, refusal to overwrite, and trust-store install
/// into a folder of the test's own.
final class CertsCommandTests: XCTestCase {
    func testWritesAFreshCredentialSetThatChains() async throws {
        let dir = NSTemporaryDirectory() + "certs-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let run = try await InspectCLI.run(["certs", "--out", dir, "--json"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let listed = try run.json()["files"]?.arrayElements?.compactMap(\.stringValue) ?? []
        for name in ["ca.pem", "server.pem", "server-key.pem", "client-app.pem", "AuthKey_TESTKEY001.p8", "keys.json"] {
            XCTAssertTrue(listed.contains(dir + "/" + name), "\(name) missing from \(listed)")
        }
        let ca = try String(contentsOfFile: dir + "/ca.pem", encoding: .utf8)
        let client = try APNsClientCertificate(pemRepresentation: try String(contentsOfFile: dir + "/client-app.pem", encoding: .utf8))
        XCTAssertEqual(client.subjectUID, "com.example.app")
        XCTAssertEqual(client.topics.map(\.name), ["com.example.app", "com.example.app.voip", "com.example.app.complication"])
        XCTAssertTrue(try CertificateTrustStore(caPEM: ca).isTrusted(client, at: Int64(Date().timeIntervalSince1970)))
        _ = try P256PrivateKey(contentsOfFile: dir + "/AuthKey_TESTKEY001.p8")
        let mode = try FileManager.default.attributesOfItem(atPath: dir + "/server-key.pem")[.posixPermissions] as? Int
        XCTAssertEqual(mode, 0o600, "private keys are not world-readable")

        let again = try await InspectCLI.run(["certs", "--out", dir])
        XCTAssertEqual(again.status, 2, "refuses to overwrite without --force")
        XCTAssertTrue(again.stderr.contains("--force"), again.stderr)
        let forced = try await InspectCLI.run(["certs", "--out", dir, "--force"])
        XCTAssertEqual(forced.status, 0, forced.stderr)
        XCTAssertNotEqual(try String(contentsOfFile: dir + "/ca.pem", encoding: .utf8), ca, "a fresh CA each time")
    }

    func testInstallAndUninstallIntoATrustStoreFolder() async throws {
        let store = NSTemporaryDirectory() + "store-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: store) }
        let install = try await InspectCLI.run(["certs", "--install", "--trust-store", store])
        XCTAssertEqual(install.status, 0, install.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: store + "/mockapns-test-ca.crt"))
        let remove = try await InspectCLI.run(["certs", "--uninstall", "--trust-store", store])
        XCTAssertEqual(remove.status, 0, remove.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: store + "/mockapns-test-ca.crt"))
        let missing = try await InspectCLI.run(["certs", "--uninstall", "--trust-store", store])
        XCTAssertEqual(missing.status, 1)
        let nothing = try await InspectCLI.run(["certs"])
        XCTAssertEqual(nothing.status, 2)
    }
}
