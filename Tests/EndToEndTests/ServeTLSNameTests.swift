import APNsModel
import Foundation
import PeerSupport
import TestSupport
import XCTest

/// `serve --tls-name` and `--ca-dir` between real processes: curl reaches the mock by a service name (resolved to
/// loopback) and verifies its certificate with the CA the ready file and the control plane name, as a sender in
/// another container does; without them the bundled certificate fails verification under any other name.
final class ServeTLSNameTests: LeakCheckedTestCase {
    private var directory = ""

    override func setUp() async throws {
        directory = try makeTestDirectory("serve-tls-name")
    }

    /// A push by curl to `https://name:port` (the name resolved to 127.0.0.1) verifying the server with `ca`: curl's
    /// exit status (60: the certificate does not verify) and the HTTP status it saw.
    private func push(as name: String, to ready: JSONValue, trusting ca: String) throws -> (exit: Int32, status: String) {
        let apnsURL = try XCTUnwrap(ready["apns_url"]?.stringValue)
        let port = try XCTUnwrap(apnsURL.split(separator: ":").last.map(String.init))
        let run = try PeerProcess.run("/usr/bin/curl", [
            "-sS", "--http2", "--max-time", "20", "--resolve", "\(name):\(port):127.0.0.1", "--cacert", ca,
            "-o", "/dev/null", "-w", "%{http_code}",
            "-H", "authorization: bearer " + (try TestTokens.jwt()), "-H", "apns-topic: com.example.app",
            "-H", "apns-push-type: alert", "--data-binary", #"{"aps":{"alert":"hi"}}"#,
            "https://\(name):\(port)/3/device/\(TestTokens.token64)",
        ], timeout: 30)
        return (run.status, run.stdout)
    }

    func testATLSNameGetsACertificateSendersVerifyUnderThatName() async throws {
        let plain = try await ServedMock.start(["--port", "0", "--quiet"], readyFile: directory + "/plain.json")
        let plainReady = plain.ready
        defer { plain.stop() }
        let bundledCA = URL(fileURLWithPath: RepoPaths.certs + "/ca.pem").standardizedFileURL.path
        XCTAssertEqual(plainReady["ca_file"]?.stringValue, bundledCA)
        XCTAssertEqual(try push(as: "mockapns", to: plainReady, trusting: bundledCA).exit, 60,
                       "the bundled certificate names only localhost and the loopback addresses")

        let named = try await ServedMock.start(["--port", "0", "--quiet", "--tls-name", "mockapns", "--tls-name", "Push.Internal"],
                                               readyFile: directory + "/named.json")
        let ready = named.ready
        defer { named.stop() }
        let ca = try XCTUnwrap(ready["ca_file"]?.stringValue)
        XCTAssertEqual(ca, bundledCA, "issued by the bundled test CA, which senders already trust")
        for name in ["mockapns", "push.internal", "localhost"] {
            let answer = try push(as: name, to: ready, trusting: ca)
            XCTAssertEqual(answer.exit, 0, "curl to \(name)")
            XCTAssertEqual(answer.status, "200", "push to \(name)")
        }
        XCTAssertEqual(try push(as: "other.name", to: ready, trusting: ca).exit, 60, "a name not asked for does not verify")
    }

    func testACADirectoryMakesItsOwnCAOnceAndKeepsIt() async throws {
        let folder = directory + "/ca"
        let first = try await ServedMock.start(["--port", "0", "--quiet", "--ca-dir", folder, "--tls-name", "mockapns"],
                                               readyFile: directory + "/first.json")
        let ready = first.ready
        let ca = try XCTUnwrap(ready["ca_file"]?.stringValue)
        XCTAssertEqual(ca, folder + "/ca.pem")
        let keyMode = try FileManager.default.attributesOfItem(atPath: folder + "/ca-key.pem")[.posixPermissions] as? Int
        XCTAssertEqual(keyMode, 0o600, "the CA key is its owner's only")
        XCTAssertEqual(try push(as: "mockapns", to: ready, trusting: ca).status, "200")
        XCTAssertEqual(try push(as: "mockapns", to: ready, trusting: RepoPaths.certs + "/ca.pem").exit, 60,
                       "the bundled CA did not sign it")
        let pem = try String(contentsOfFile: ca, encoding: .utf8)
        first.stop()
        _ = try await first.process.waitForExit(timeout: .seconds(30))

        let second = try await ServedMock.start(["--port", "0", "--quiet", "--ca-dir", folder, "--tls-name", "mockapns"],
                                                readyFile: directory + "/second.json")
        let again = second.ready
        defer { second.stop() }
        XCTAssertEqual(try String(contentsOfFile: ca, encoding: .utf8), pem, "a second start keeps the CA senders trust")
        XCTAssertEqual(try push(as: "mockapns", to: again, trusting: ca).status, "200", "the new certificate is signed by the kept CA")
    }

    func testTheControlPlaneServesTheCAAndHealthWithoutTheToken() async throws {
        let process = try await ServedMock.start(["--port", "0", "--quiet", "--tls-name", "mockapns", "--control-port", "0",
                                                  "--control-token", "s3cret"], readyFile: directory + "/process.json")
        let ready = process.ready
        defer { process.stop() }
        let control = try XCTUnwrap(ready["control_url"]?.stringValue)
        let ca = try CurlRequest.send("GET", control + "/api/v1/ca.pem")
        XCTAssertEqual(ca.status, 200)
        XCTAssertEqual(ca.headers["content-type"], "application/x-pem-file")
        XCTAssertEqual(ca.body, try String(contentsOfFile: try XCTUnwrap(ready["ca_file"]?.stringValue), encoding: .utf8))
        XCTAssertEqual(try CurlRequest.send("GET", control + "/healthz").status, 200, "a health probe has no token")
        XCTAssertEqual(try CurlRequest.send("GET", control + "/api/v1/notifications").status, 401, "records still need it")
        let withToken = try CurlRequest.send("GET", control + "/api/v1/notifications", headers: ["authorization: Bearer s3cret"])
        XCTAssertEqual(withToken.status, 200)
    }

    func testContradictoryOrMalformedNamesAreUsageErrors() async throws {
        let cases: [([String], String)] = [
            (["--tls-name", "bad name"], "is not a host name"),
            (["--tls-name", "mockapns", "--cert", RepoPaths.certs + "/server.pem", "--key", RepoPaths.certs + "/server-key.pem"],
             "pick one way"),
            (["--h2c", "--ca-dir", directory + "/unused"], "--h2c serves no TLS"),
        ]
        for (arguments, message) in cases {
            let result = try await InspectCLI.run(["serve", "--port", "0", "--no-control"] + arguments, timeout: .seconds(30))
            XCTAssertEqual(result.status, 2, "\(arguments): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains(message), "\(arguments): \(result.stderr)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory + "/unused"), "a refused start makes no CA")
    }
}
