import APNsCrypto
import APNsModel
import TestSupport
import Foundation
import XCTest
@testable import MockAPNs
@testable import MockAPNsRecording

/// Every `Fixtures/conformance` case sent over the wire to a live mock: real JWTs minted with the test keys
/// (tampered, DER, other-key and alg variants made for real), real client certificates over mTLS, and a
/// raw HTTP/2 client (python-h2) so duplicate headers and odd bodies arrive as written.
///
/// Cases whose connection history spans time (token-update rate) move the mock's clock between requests
/// (`MockClock`), so they too run over one real connection. Every case goes through one python-h2 process
/// (``H2PeerTestCase``), not an interpreter each.
final class WireConformanceTests: H2PeerTestCase {
    private struct ServerKey: Hashable {
        var environment: APNsEnvironment
        var environmentKeyReason: APNsReason
        /// Serving Apple's names (`--apple-hosts`) for cases that name an `apple_host`.
        var appleHosts: Bool
    }

    func testEveryCaseOverTheWire() async throws {
        let files = try ConformanceCase.all()
        XCTAssertGreaterThanOrEqual(files.count, 80)
        var servers: [ServerKey: TestServer] = [:]
        var failures: [String] = []
        var ran = 0
        // Apple's names are signed by a CA of the test's own: the mock never signs them with the bundled one.
        let authority = try makeTestDirectory("apple-hosts-ca")
        for url in files {
            let c = try ConformanceCase(url: url)
            let key = ServerKey(environment: c.environment, environmentKeyReason: c.environmentKeyReason,
                                appleHosts: c.appleHost != nil)
            if servers[key] == nil {
                let started = try await TestServer.start {
                    $0.mock.environment = key.environment
                    $0.mock.environmentKeyReason = key.environmentKeyReason
                    if key.appleHosts {
                        var apple = ListenerConfiguration.AppleHostPorts()
                        apple.httpsPort = 0
                        apple.channelManagementSandboxPort = 0
                        apple.channelManagementProductionPort = 0
                        $0.listener.appleHosts = apple
                        $0.listener.tls?.certificateAuthorityDirectory = authority
                    }
                }
                addTeardownBlock { await started.stop() }
                servers[key] = started
            }
            let server = servers[key]!
            // A case the peer cannot send (it raised, died or hung) is that case's failure; the next case goes on,
            // on a new peer if this one is gone.
            do {
                if let problem = try run(c, on: server) { failures.append("\(c.file) (\(c.name)): \(problem)") }
            } catch {
                failures.append("\(c.file) (\(c.name)): \(error)")
            }
            ran += 1
        }
        XCTAssertTrue(failures.isEmpty, "\(failures.count) of \(ran) cases differ over the wire:\n" + failures.joined(separator: "\n"))
        XCTAssertEqual(ran, files.count)
    }

    private func run(_ c: ConformanceCase, on server: TestServer) throws -> String? {
        if let setup = c.request["path"]?.stringValue.flatMap(Self.bundleID(inPath:)), c.hasChannelSetup {
            server.mock.pipeline.channels.insert(
                bundleID: setup, channel: .init(id: ConformanceCase.channelID, messageStoragePolicy: Self.policy(of: c)))
        }
        let now = Int64(Date().timeIntervalSince1970)
        var certificate: String?
        var tokens: [String: String] = [:]   // one auth block = one token string, as a real sender reuses it
        var requests: [H2Requests.Request] = []
        for entry in c.history {
            requests.append(try wireRequest(c, request: entry.request ?? ConformanceCase.defaultHistoryRequest,
                                            auth: entry.auth, now: now, certificate: &certificate, tokens: &tokens))
        }
        requests.append(try wireRequest(c, request: c.request, auth: c.auth, now: now, certificate: &certificate, tokens: &tokens))
        // An Apple host is reached on the port Apple serves its API on (2197's stand-in for the push hosts), by name.
        var port = server.port
        if let host = c.appleHost, let apple = AppleHost.channelManagement.first(where: { $0.name == host }) {
            guard let bound = server.server.applePorts[apple.port] else { return "no listener for Apple's \(apple.port)" }
            port = bound
        }
        let ca = c.appleHost == nil ? nil : server.server.certificateAuthorityPath
        let outcome: H2Requests.Outcome
        if c.history.contains(where: { $0.atOffset != 0 }) {
            // Request i happens at history[i].atOffset seconds before the final one (which is at 0).
            let offsets = c.history.map(\.atOffset) + [0]
            let clock = server.mock.clock
            defer { clock.set(offsetSeconds: 0) }   // also when the exchange fails: the next case starts at now
            outcome = try H2Requests.runStepped(port: port, certificate: certificate, authority: c.appleHost, ca: ca,
                                                requests) { index in
                clock.set(offsetSeconds: offsets[index])
            }
        } else {
            outcome = try H2Requests.run(port: port, certificate: certificate, authority: c.appleHost, ca: ca, requests)
        }
        for (index, entry) in c.history.enumerated() {
            if let status = entry.expectStatus, outcome.responses[index].status != status {
                return "history request \(index + 1) got \(outcome.responses[index].status.map(String.init) ?? "no answer")"
                    + ", expected \(status)"
            }
        }
        guard let last = outcome.responses.last else { return "no response" }
        guard last.status == c.expectedStatus, last.reason == c.expectedReason else {
            return "got \(last.status.map(String.init) ?? "no answer") \(last.reason ?? last.error ?? "")"
                + ", expected \(c.expectedStatus) \(c.expectedReason ?? "")"
        }
        let path = c.request["path"]?.stringValue ?? ""
        if path.hasPrefix("/4/broadcasts") || path.hasPrefix("/1/apps") {
            // apns-rules §1.2, §3.5: every answer on these APIs, success or error, names itself with apns-request-id.
            let names = last.headers.compactMap(\.first)
            guard names.contains("apns-request-id"), !names.contains("apns-id") else {
                return "a broadcast/channel answer must carry apns-request-id and no apns-id; headers: \(names)"
            }
        }
        if c.expectedStatus == 200, c.request["path"]?.stringValue?.hasPrefix("/3/device/") == true, !last.body.isEmpty {
            return "a 200 to a device push carried a body: \(last.body)"
        }
        return nil
    }

    private func wireRequest(_ c: ConformanceCase, request: JSONValue, auth: JSONValue, now: Int64,
                             certificate: inout String?, tokens: inout [String: String]) throws -> H2Requests.Request {
        let model = try c.makeRequest(request, auth: auth)
        var headers = model.headers.map { ($0.name, $0.value) }
        switch auth["kind"]?.stringValue {
        case "token":
            guard let index = headers.firstIndex(where: { $0.0 == "authorization" }) else { throw Self.error("no authorization") }
            let key = auth.jsonText(sortedKeys: true)
            let jwt = try tokens[key] ?? Self.mint(auth, now: now)
            tokens[key] = jwt
            headers[index].1 = "bearer " + jwt
        case "certificate":
            certificate = auth["cert"]?.stringValue
        default:
            break
        }
        return H2Requests.Request(method: model.method, path: model.path, headers: headers, body: model.body)
    }

    /// Mints the JWT an auth block describes, for real.
    static func mint(_ auth: JSONValue, now: Int64) throws -> String {
        let omitted = Set((auth["omit"]?.arrayElements ?? []).compactMap(\.stringValue))
        let keyID = auth["key_id"]?.stringValue ?? "TESTKEY001"
        var header: [JSONValue.JSONMember] = [.init("alg", .string(auth["alg"]?.stringValue ?? "ES256"))]
        if !omitted.contains("kid") { header.append(.init("kid", .string(keyID))) }
        var claims: [JSONValue.JSONMember] = []
        if !omitted.contains("iss") { claims.append(.init("iss", .string(auth["team_id"]?.stringValue ?? "TESTTEAM01"))) }
        var claimsText = JSONValue.object(claims).jsonText()
        if !omitted.contains("iat") {
            // The iat claim's JSON text, verbatim (fractions, strings and out-of-range numbers included).
            let iat = ConformanceCase.issuedAtClaimText(auth, now: now)
            claimsText = claims.isEmpty ? "{\"iat\":\(iat)}" : String(claimsText.dropLast()) + ",\"iat\":\(iat)}"
        }
        let signingInput = Base64URL.encode(Array(JSONValue.object(header).jsonText().utf8)) + "."
            + Base64URL.encode(Array(claimsText.utf8))
        let form = auth["signature"]?.stringValue ?? "valid"
        let signerID = form == "other-key" ? "OTHERKEY01"
            : (FileManager.default.fileExists(atPath: RepoPaths.cert("AuthKey_\(keyID).p8")) ? keyID : "TESTKEY001")
        let key = try P256PrivateKey(contentsOfFile: RepoPaths.cert("AuthKey_\(signerID).p8"))
        var signature = form == "der" ? try key.derSignature(for: Array(signingInput.utf8))
                                      : try key.signature(for: Array(signingInput.utf8))
        if form == "tampered" { signature[signature.count / 2] ^= 0x01 }
        return signingInput + "." + Base64URL.encode(signature)
    }

    static func bundleID(inPath path: String) -> String? {
        let parts = path.split(separator: "/").map(String.init)
        if parts.count >= 4, parts[0] == "4" { return parts[3] }
        if parts.count >= 3, parts[0] == "1" { return parts[2] }
        return nil
    }

    static func policy(of c: ConformanceCase) -> Int {
        guard let data = try? Data(contentsOf: ConformanceCase.fixtures.appendingPathComponent("conformance/\(c.file)")),
              let json = try? JSONValue.parse(Array(data)) else { return 0 }
        return Int(json.value(at: ["setup", "channel", "message-storage-policy"])?.integerValue ?? 0)
    }

    static func error(_ text: String) -> NSError {
        NSError(domain: "WireConformance", code: 1, userInfo: [NSLocalizedDescriptionKey: text])
    }
}
