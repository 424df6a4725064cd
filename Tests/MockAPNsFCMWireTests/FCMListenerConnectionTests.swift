import APNsCrypto
import Foundation
import JSON
import MockAPNs
import MockAPNsHTTP2
import PeerSupport
import TestSupport
import XCTest
@testable import MockAPNsFCM

/// The FCM listener's HTTP/1.1 connections over their life, with real clients on a socket: an idle one is closed as
/// an idle HTTP/2 one is, and one whose answer is in flight when the listener stops gets its answer first.
final class FCMListenerConnectionTests: LeakCheckedTestCase {
    private var directory = ""
    private var mock: Mock!
    private var frontDoor: FCMFrontDoor!
    private var group: BackgroundServiceGroup!
    private var url = ""
    private var ca = ""

    /// A front door on a free port, with `configure` applied to its configuration.
    private func start(_ configure: (inout FCMConfiguration) -> Void = { _ in }) async throws {
        directory = try makeTestDirectory("fcm-connections")
        mock = try Mock(configuration: MockConfiguration())
        var configuration = FCMConfiguration()
        configure(&configuration)
        frontDoor = try FCMFrontDoor(mock: mock, configuration: configuration, logger: .init(label: "test"))
        let identity = try ServerIdentity.issue(names: FCMIdentity.googleNames, authorityDirectory: directory + "/ca")
        ca = try XCTUnwrap(identity.certificateAuthorityPath)
        let listener = try FCMListener(frontDoor: frontDoor, role: .own, host: "127.0.0.1", port: 0,
                                       identity: FCMIdentity(certificateChainPEM: identity.certificateChainPEM,
                                                             privateKeyPEM: identity.privateKeyPEM, certificateAuthorityPath: ca),
                                       logger: .init(label: "test"))
        group = BackgroundServiceGroup([listener], logger: .init(label: "test"))
        url = "https://127.0.0.1:\(try await listener.waitUntilListening())"
    }

    /// An access token for `account`, from the front door's OAuth grant as google-auth asks for it.
    private func bearer(_ account: ServiceAccount) throws -> String {
        let now = Int64(Date().timeIntervalSince1970)
        let header = JSONValue.object([.init("typ", .string("JWT")), .init("alg", .string("RS256")),
                                       .init("kid", .string(account.privateKeyID))]).jsonText()
        let claims = JSONValue.object([
            .init("iss", .string(account.clientEmail)), .init("scope", .string("https://www.googleapis.com/auth/firebase.messaging")),
            .init("aud", .string(ServiceAccount.googleTokenURI)), .init("iat", .integer(now)), .init("exp", .integer(now + 3600)),
        ]).jsonText()
        let input = Base64URL.encode(Array(header.utf8)) + "." + Base64URL.encode(Array(claims.utf8))
        let signature = Base64URL.encode(try RSAPrivateKey(pem: account.privateKeyPEM).signRS256(Array(input.utf8)))
        let form = "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=\(input).\(signature)"
        let answer = frontDoor.exchangeToken(contentType: nil, body: Array(form.utf8), tooLarge: false)
        return try XCTUnwrap(try JSONValue.parse(answer.body)["access_token"]?.stringValue, String(decoding: answer.body, as: UTF8.self))
    }

    override func tearDown() async throws {
        await group?.stop()
        mock?.shutdown()
    }

    func testAnIdleHTTP1ConnectionIsClosedAfterTheIdleTimeout() async throws {
        try await start { $0.idleTimeout = .milliseconds(300) }
        let port = try XCTUnwrap(url.split(separator: ":").last.map(String.init))
        // One request over TLS with ALPN http/1.1 and keep-alive, then silence: the server closes (EOF), or after 20 s
        // the script says the connection is still open.
        let script = """
        import socket, ssl, sys
        context = ssl.create_default_context(cafile=sys.argv[1])
        context.set_alpn_protocols(["http/1.1"])
        raw = socket.create_connection(("127.0.0.1", int(sys.argv[2])))
        connection = context.wrap_socket(raw, server_hostname="fcm.googleapis.com")
        assert connection.selected_alpn_protocol() == "http/1.1", connection.selected_alpn_protocol()
        connection.sendall(b"POST /nowhere HTTP/1.1\\r\\nhost: fcm.googleapis.com\\r\\ncontent-length: 0\\r\\n\\r\\n")
        answer = b""
        while b"\\r\\n\\r\\n" not in answer:
            answer += connection.recv(65536)
        head, _, body = answer.partition(b"\\r\\n\\r\\n")
        length = int([line.split(b":")[1] for line in head.split(b"\\r\\n") if line.lower().startswith(b"content-length")][0])
        while len(body) < length:
            body += connection.recv(65536)
        print(head.split(b"\\r\\n")[0].decode())
        connection.settimeout(20)
        try:
            print("closed" if connection.recv(1) == b"" else "more bytes")
        except socket.timeout:
            print("open")
        except (ConnectionResetError, ssl.SSLError):
            print("closed")
        """
        let run = try PeerProcess.run(RepoPaths.python, ["-c", script, ca, port], timeout: 60)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stdout.split(separator: "\n").map(String.init), ["HTTP/1.1 404 Not Found", "closed"], run.stderr)
    }

    func testAnHTTP1AnswerInFlightWhenTheListenerStopsIsWrittenBeforeItCloses() async throws {
        try await start()
        let account = try frontDoor.projects.makeServiceAccount(project: "mockapns-test")
        let registration = try frontDoor.register(project: "mockapns-test", platform: .ios, bundleID: "com.example.app", apnsToken: nil)
        let apns = try XCTUnwrap(registration.apnsToken)
        // APNs answers this device's push 2 s late, so the FCM answer is still to come when the listener is told to stop.
        _ = mock.faults.add(FaultRule(token: apns, action: .delay(milliseconds: 2000)))
        let bearer = try bearer(account)
        let body = #"{"message":{"token":"\#(registration.token)","notification":{"title":"Late"}}}"#
        let sender = try PeerProcess.start("/usr/bin/curl", ["-sS", "--http1.1", "--max-time", "30", "--cacert", ca, "-w", "\n%{http_code}",
                                                            "-H", "content-type: application/json", "-H", "authorization: Bearer " + bearer,
                                                            "--data-binary", body, url + "/v1/projects/mockapns-test/messages:send"])
        XCTAssertTrue(Poll.blockingUntil(timeout: .seconds(30)) { self.mock.faults.entries.first?.fired == 1 }, "the push never reached APNs")
        await group.stop()
        let answered = sender.wait(timeout: 30)
        XCTAssertEqual(answered.status, 0, answered.stderr)
        let lines = answered.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.last, "200", answered.stdout + answered.stderr)
        XCTAssertTrue(answered.stdout.contains("projects/mockapns-test/messages/"), answered.stdout)
    }
}
