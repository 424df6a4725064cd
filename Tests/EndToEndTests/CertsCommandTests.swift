import APNsCrypto
import APNsModel
import Foundation
import PeerSupport
import XCTest

/// `mockapns certs`: fresh credentials that parse and chain, refusal to overwrite, and trust-store install
/// into a folder of the test's own.
final class CertsCommandTests: LeakCheckedTestCase {
    func testWritesAFreshCredentialSetThatChains() async throws {
        let dir = try makeTestDirectory("certs") + "/out"   // certs --out makes it
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
        let directory = try makeTestDirectory("certs-install")
        let store = directory + "/store", data = directory + "/data"
        let install = try await InspectCLI.run(["certs", "--install", "--trust-store", store], environment: ["XDG_DATA_HOME": data])
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

    private static let repo = RepoPaths.root

    /// `--install` never trusts the bundled CA (its key is public): it makes a CA per user data folder, installs
    /// exactly that one, reuses it on the next run, and `serve --cert/--key` with its server certificate is
    /// trusted by a client that has only that CA.
    func testInstallMakesAndTrustsACAOfThisMachinesOwn() async throws {
        let root = try makeTestDirectory("install")
        let store = root + "/store"
        let first = try await InspectCLI.run(["certs", "--install", "--trust-store", store, "--json"],
                                             environment: ["XDG_DATA_HOME": root + "/xdg", "HOME": root + "/home1"])
        XCTAssertEqual(first.status, 0, first.stderr)
        let folder = root + "/xdg/mockapns"
        XCTAssertEqual(try first.json()["directory"]?.stringValue, folder)
        XCTAssertEqual(try first.json()["serve"]?.stringValue,
                       "mockapns serve --cert \(folder)/server.pem --key \(folder)/server-key.pem")
        let ca = try String(contentsOfFile: folder + "/ca.pem", encoding: .utf8)
        let bundled = try String(contentsOfFile: Self.repo + "/certs/ca.pem", encoding: .utf8)
        XCTAssertNotEqual(ca, bundled, "the bundled CA was used")
        XCTAssertEqual(try String(contentsOfFile: store + "/mockapns-test-ca.crt", encoding: .utf8), ca, "installed another CA than the one made")
        let mode = try FileManager.default.attributesOfItem(atPath: folder + "/ca-key.pem")[.posixPermissions] as? Int
        XCTAssertEqual(mode, 0o600)

        let again = try await InspectCLI.run(["certs", "--install", "--trust-store", store, "--json"],
                                             environment: ["XDG_DATA_HOME": root + "/xdg"])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertEqual(try again.json()["files"]?.arrayElements?.count, 0, "a second --install reuses the CA")
        XCTAssertEqual(try String(contentsOfFile: folder + "/ca.pem", encoding: .utf8), ca)

        let otherHome = try await InspectCLI.run(["certs", "--install", "--trust-store", root + "/store2"],
                                                 environment: ["XDG_DATA_HOME": nil, "HOME": root + "/home2"])
        XCTAssertEqual(otherHome.status, 0, otherHome.stderr)
        let otherFolder = root + "/home2/.local/share/mockapns"
        XCTAssertTrue(otherHome.stdout.contains("mockapns serve --cert \(otherFolder)/server.pem --key \(otherFolder)/server-key.pem"),
                      otherHome.stdout)
        XCTAssertNotEqual(try String(contentsOfFile: otherFolder + "/ca.pem", encoding: .utf8), ca, "two data folders share a CA")

        let verify = try PeerProcess.run("/usr/bin/openssl", ["verify", "-CAfile", folder + "/ca.pem", folder + "/server.pem"])
        XCTAssertEqual(verify.status, 0, verify.stdout + verify.stderr)
        XCTAssertTrue(verify.stdout.contains(": OK"), verify.stdout)
        let foreign = try PeerProcess.run("/usr/bin/openssl", ["verify", "-CAfile", Self.repo + "/certs/ca.pem",
                                                                         folder + "/server.pem"])
        XCTAssertNotEqual(foreign.status, 0, "the bundled CA must not vouch for the new server certificate")

        let server = try await ServedMock.start(["--port", "0", "--no-control", "--cert", folder + "/server.pem",
                                                 "--key", folder + "/server-key.pem"], readyFile: root + "/ready.json")
        defer { server.terminate() }
        let apnsURL = server.apnsURL
        let jwt = try await InspectCLI.run(["token", "--key-file", "TESTTEAM01:TESTKEY001:\(Self.repo)/certs/AuthKey_TESTKEY001.p8"])
            .stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        func curl(caFile: String) throws -> PeerProcess.Output {
            try PeerProcess.run("/usr/bin/curl", [
                "-sS", "--http2", "--cacert", caFile, "-o", "/dev/null", "-w", "%{http_code}",
                "-H", "authorization: bearer \(jwt)", "-H", "apns-topic: com.example.app",
                "--data-binary", #"{"aps":{"alert":"hi"}}"#, "\(apnsURL)/3/device/\(String(repeating: "0f", count: 32))",
            ])
        }
        let trusted = try curl(caFile: folder + "/ca.pem")
        XCTAssertEqual(trusted.stdout, "200", trusted.stderr)
        let untrusted = try curl(caFile: Self.repo + "/certs/ca.pem")
        XCTAssertEqual(untrusted.status, 60, "curl trusted the server through the bundled CA: \(untrusted.stderr)")
    }
}
