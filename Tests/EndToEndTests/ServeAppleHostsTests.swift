import APNsModel
import Foundation
import MockAPNs
import MockAPNsHTTP2
import PeerSupport
import TestSupport
import XCTest

/// `serve --apple-hosts` between real processes: curl reaches Apple's own names (resolved to loopback, as a hosts file
/// or an in-process resolver would) on Apple's four ports, verifying the certificate with the CA the ready file and
/// the control plane name; the host decides the environment, and each port serves only its API.
final class ServeAppleHostsTests: LeakCheckedTestCase {
    private var directory = ""

    override func setUp() async throws {
        directory = try makeTestDirectory("serve-apple-hosts")
    }

    private static let freePorts = ["--port", "0", "--apple-https-port", "0", "--manage-sandbox-port", "0",
                                    "--manage-production-port", "0"]

    /// curl to `https://host:port/path` (the name resolved to 127.0.0.1) trusting `ca`: its exit status, the HTTP
    /// status and the response headers.
    private func request(_ host: String, port: Int, path: String, method: String = "POST", body: String?,
                         trusting ca: String) throws -> (exit: Int32, status: String, headers: String) {
        let headerFile = directory + "/headers-\(UUID().uuidString)"
        var arguments = ["-sS", "--http2", "--max-time", "20", "--resolve", "\(host):\(port):127.0.0.1", "--cacert", ca,
                         "-o", "/dev/null", "-D", headerFile, "-w", "%{http_code}", "-X", method,
                         "-H", "authorization: bearer " + (try TestTokens.jwt()), "-H", "apns-topic: com.example.app",
                         "-H", "apns-push-type: alert"]
        if let body { arguments += ["--data-binary", body] }
        let run = try PeerProcess.run("/usr/bin/curl", arguments + ["https://\(host):\(port)\(path)"], timeout: 30)
        let headers = (try? String(contentsOfFile: headerFile, encoding: .utf8)) ?? ""
        return (run.status, run.stdout, headers.lowercased())
    }

    func testApplesNamesAreServedOnApplesPortsEachHostItsEnvironment() async throws {
        let folder = directory + "/ca"
        let record = directory + "/records.jsonl"
        let served = try await ServedMock.start(["--apple-hosts", "--ca-dir", folder, "--control-port", "0", "--quiet"]
                                                    + Self.freePorts, readyFile: directory + "/ready.json", record: record)
        defer { served.stop() }
        let ready = served.ready
        let ca = try XCTUnwrap(ready["ca_file"]?.stringValue)
        XCTAssertEqual(ca, folder + "/ca.pem")
        let keyMode = try FileManager.default.attributesOfItem(atPath: folder + "/ca-key.pem")[.posixPermissions] as? Int
        XCTAssertEqual(keyMode, 0o600, "the CA key is its owner's only")
        var ports: [Int: Int] = [:]
        for apple in [443, 2197, 2195, 2196] {
            ports[apple] = try XCTUnwrap(ready.value(at: ["apple_ports", "\(apple)"])?.integerValue).map(Int.init)
        }
        XCTAssertEqual(ports[2197], Int(served.apnsURL.split(separator: ":").last ?? ""), "2197 is the APNs URL's port")
        XCTAssertEqual(Set(ports.values).count, 4, "four listeners")
        let device = "/3/device/\(TestTokens.token64)"
        let alert = #"{"aps":{"alert":"hi"}}"#

        let production = try request("api.push.apple.com", port: ports[443]!, path: device, body: alert, trusting: ca)
        XCTAssertEqual(production.exit, 0)
        XCTAssertEqual(production.status, "200")
        XCTAssertFalse(production.headers.contains("apns-unique-id"), "production answers carry no apns-unique-id")
        let sandbox = try request("api.sandbox.push.apple.com", port: ports[2197]!, path: device, body: alert, trusting: ca)
        XCTAssertEqual(sandbox.status, "200")
        XCTAssertTrue(sandbox.headers.contains("apns-unique-id"), "development answers do")
        let legacy = try request("api.development.push.apple.com", port: ports[443]!, path: device, body: alert, trusting: ca)
        XCTAssertEqual(legacy.status, "200")
        XCTAssertEqual(try request("api.push.apple.com", port: ports[443]!, path: device, body: alert,
                                   trusting: RepoPaths.cert("ca.pem")).exit, 60, "the bundled CA signs no Apple name")

        let channels = "/1/apps/com.example.app/channels"
        let create = #"{"message-storage-policy":0,"push-type":"LiveActivity"}"#
        XCTAssertEqual(try request("api-manage-broadcast.sandbox.push.apple.com", port: ports[2195]!, path: channels,
                                   body: create, trusting: ca).status, "201")
        XCTAssertEqual(try request("api-manage-broadcast.push.apple.com", port: ports[2196]!, path: channels,
                                   body: create, trusting: ca).status, "201")
        XCTAssertEqual(try request("api.push.apple.com", port: ports[443]!, path: channels, body: create, trusting: ca).status,
                       "404", "channel management is not served on the push ports")
        XCTAssertEqual(try request("api-manage-broadcast.push.apple.com", port: ports[2196]!, path: device, body: alert,
                                   trusting: ca).status, "404", "pushes are not served on the channel-management ports")

        let controlURL = try XCTUnwrap(served.controlURL)
        let servedCA = try PeerProcess.run("/usr/bin/curl", ["-sS", "--max-time", "10", controlURL + "/api/v1/ca.pem"], timeout: 20)
        XCTAssertEqual(servedCA.stdout, try String(contentsOfFile: ca, encoding: .utf8), "the control plane serves the same CA")

        served.stop()
        _ = try await served.process.waitForExit(timeout: .seconds(30))
        let records = try String(contentsOfFile: record, encoding: .utf8).split(separator: "\n")
            .map { try RecordedRequest(jsonLine: Array($0.utf8)) }
        XCTAssertEqual(records.map(\.environment), [.production, .development, .development, .development, .production,
                                                    .production, .production],
                       "each record has the environment its host (or channel-management port) implied")
        XCTAssertEqual(records.map(\.response.status), [200, 200, 200, 201, 201, 404, 404])
    }

    /// The JVM takes `/api/v1/ca.p12` as it is: keytool lists a trusted-certificate entry, and the JDK's own HttpClient,
    /// given nothing but the trust store's system properties, verifies the mock's certificate over HTTP/2.
    func testTheCAAsAPKCS12TrustStoreIsTrustedByTheJDK() async throws {
        let served = try await ServedMock.start(["--apple-hosts", "--ca-dir", directory + "/ca", "--control-port", "0", "--quiet"]
                                                    + Self.freePorts, readyFile: directory + "/ready.json")
        defer { served.stop() }
        let store = directory + "/ca.p12"
        let fetched = try PeerProcess.run("/usr/bin/curl", ["-fsS", "--max-time", "10", "-o", store,
                                                            try XCTUnwrap(served.controlURL) + "/api/v1/ca.p12"], timeout: 20)
        XCTAssertEqual(fetched.status, 0, fetched.stderr)
        let listed = try PeerProcess.run("/usr/bin/keytool", ["-list", "-v", "-keystore", store, "-storetype", "PKCS12",
                                                               "-storepass", "changeit"], timeout: 60)
        XCTAssertEqual(listed.status, 0, listed.stdout + listed.stderr)
        XCTAssertTrue(listed.stdout.contains("Alias name: mockapns-ca"), listed.stdout)
        XCTAssertTrue(listed.stdout.contains("Entry type: trustedCertEntry"), listed.stdout)
        let source = directory + "/TrustCheck.java"
        try """
            import java.net.URI;
            import java.net.http.*;
            public class TrustCheck {
                public static void main(String[] args) throws Exception {
                    var client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).build();
                    var request = HttpRequest.newBuilder(URI.create(args[0])).header("authorization", "bearer " + args[1])
                        .header("apns-topic", "com.example.app").POST(HttpRequest.BodyPublishers.ofString("{\\"aps\\":{\\"alert\\":\\"hi\\"}}")).build();
                    var response = client.send(request, HttpResponse.BodyHandlers.ofString());
                    System.out.println(response.version() + " " + response.statusCode());
                }
            }
            """.write(toFile: source, atomically: true, encoding: .utf8)
        let url = "https://localhost:\(try XCTUnwrap(served.ready.value(at: ["apple_ports", "443"])?.integerValue))/3/device/\(TestTokens.token64)"
        let java = try PeerProcess.run("/usr/bin/java", ["-Djavax.net.ssl.trustStore=" + store, "-Djavax.net.ssl.trustStorePassword=changeit",
                                                          source, url, try TestTokens.jwt()], timeout: 120)
        XCTAssertEqual(java.status, 0, java.stderr)
        XCTAssertEqual(java.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "HTTP_2 200", java.stderr)
    }

    func testAPortInUseNamesTheFlagThatMovesIt() async throws {
        let first = try await ServedMock.start(["--quiet", "--no-control", "--port", "0"], readyFile: directory + "/first.json")
        defer { first.stop() }
        let taken = try XCTUnwrap(first.apnsURL.split(separator: ":").last.map(String.init))
        let run = try await InspectCLI.run(["serve", "--apple-hosts", "--ca-dir", directory + "/ca", "--no-control", "--port", "0",
                                            "--apple-https-port", "0", "--manage-sandbox-port", taken,
                                            "--manage-production-port", "0"])
        XCTAssertEqual(run.status, 1)
        XCTAssertTrue(run.stderr.contains("127.0.0.1:\(taken) is already in use — change --manage-sandbox-port (0 picks a free port)"),
                      run.stderr)
    }

    /// Port 443 for a user without the right to bind it: the error says the ways out. Run as `nobody` when the suite
    /// runs as root (CI does), as the user itself otherwise. `nobody` may not be able to enter the clone (root's home,
    /// a `mktemp -d` folder), so it runs a copy of what it needs from this test's folder (``copiesForOthers(in:)``).
    func testPort443WithoutTheRightToBindItSaysWhatToDo() throws {
        let folder = directory + "/ca-nobody"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o777])
        try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: directory)
        let serve = ["serve", "--apple-hosts", "--ca-dir", folder, "--no-control", "--port", "0",
                     "--apple-https-port", "443", "--manage-sandbox-port", "0", "--manage-production-port", "0"]
        let run: PeerProcess.Output
        if getuid() == 0 {
            let copies = try copiesForOthers(in: directory + "/for-nobody")
            run = try PeerProcess.run("/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/env",
                                                           "--chdir=" + directory, "MOCKAPNS_CERTS_DIR=" + copies.certs,
                                                           copies.binary] + serve, timeout: 30)
        } else {
            run = try PeerProcess.run(try InspectCLI.binary.path, serve, timeout: 30)
        }
        XCTAssertEqual(run.status, 1, run.stderr)
        XCTAssertTrue(run.stderr.contains("cannot start the APNs endpoint"), run.stderr)
        XCTAssertTrue(run.stderr.contains("--apple-https-port or --port; 0 picks a free one, then route 443 to it"), run.stderr)
        XCTAssertTrue(run.stderr.contains("setcap cap_net_bind_service=+ep"), run.stderr)
    }

    /// What another user needs to run `mockapns serve` from a clone it cannot enter: the bundled credentials copied
    /// into `folder/certs` (folders 0755, files 0644), and the binary, copied into `folder` when others cannot run it
    /// where it was built. Returns the binary to run and the credentials folder (for `MOCKAPNS_CERTS_DIR`).
    private func copiesForOthers(in folder: String) throws -> (binary: String, certs: String) {
        let files = FileManager.default
        let certs = folder + "/certs"
        try files.createDirectory(atPath: certs, withIntermediateDirectories: true)
        for path in [folder, certs] { try files.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path) }
        for name in try files.contentsOfDirectory(atPath: RepoPaths.certs) {
            let kind = try files.attributesOfItem(atPath: RepoPaths.cert(name))[.type] as? FileAttributeType
            guard kind == FileAttributeType.typeRegular else { continue }
            try files.copyItem(atPath: RepoPaths.cert(name), toPath: certs + "/" + name)
            try files.setAttributes([.posixPermissions: 0o644], ofItemAtPath: certs + "/" + name)
        }
        let built = try InspectCLI.binary.path
        guard !Self.othersCanRun(built) else { return (built, certs) }
        let binary = folder + "/mockapns"
        try files.copyItem(atPath: built, toPath: binary)
        try files.setAttributes([.posixPermissions: 0o755], ofItemAtPath: binary)
        return (binary, certs)
    }

    /// Whether a user who owns neither `path` nor any folder above it, and is in none of their groups, may run it:
    /// every folder on the way (through symbolic links too) searchable by others, and the file executable by them.
    /// Mode bits only: access control lists are not read.
    private static func othersCanRun(_ path: String) -> Bool {
        func mode(_ item: String) -> Int {
            ((try? FileManager.default.attributesOfItem(atPath: item))?[.posixPermissions] as? Int) ?? 0
        }
        let given = URL(fileURLWithPath: path).standardized
        let real = given.resolvingSymlinksInPath()
        guard mode(real.path) & 0o001 != 0 else { return false }
        for start in Set([given.path, real.path]) {
            var folder = start
            while true {
                let parent = URL(fileURLWithPath: folder).deletingLastPathComponent().path
                guard parent.count < folder.count else { break }   // at the root
                folder = parent
                guard mode(folder) & 0o001 != 0 else { return false }
            }
        }
        return true
    }

    /// A program embedding the mock cannot get Apple's names signed by the bundled CA either.
    func testTheBundledCANeverSignsApplesNames() throws {
        var configuration = MockDeployment()
        configuration.listener.port = 0
        configuration.mock.credentialsDirectory = RepoPaths.certs
        configuration.listener.appleHosts = ListenerConfiguration.AppleHostPorts()
        XCTAssertThrowsError(try TestServer.makeServer(configuration)) { error in
            XCTAssertEqual("\(error)", "invalid certificate: --apple-hosts never uses the bundled test CA (its private key is public): give --ca-dir DIR, a folder for a CA of this machine's own")
        }
    }
}
