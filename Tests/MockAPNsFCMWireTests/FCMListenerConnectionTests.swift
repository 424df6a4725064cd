import Foundation
import MockAPNs
import PeerSupport
import TestSupport
import XCTest
@testable import MockAPNsFCM

/// The FCM listener's HTTP/1.1 connections over their life, with real clients on a socket: an idle one is closed as
/// an idle HTTP/2 one is, and one whose answer is in flight when the listener stops gets its answer first.
final class FCMListenerConnectionTests: LeakCheckedTestCase {
    private var served: FCMTestListener?

    /// A front door on a free port, with `configure` applied to its configuration.
    private func start(_ configure: (inout FCMConfiguration) -> Void = { _ in }) async throws -> FCMTestListener {
        var configuration = FCMConfiguration()
        configure(&configuration)
        let listener = try await FCMTestListener.start(directory: try makeTestDirectory("fcm-connections"), configuration: configuration)
        served = listener
        return listener
    }

    override func tearDown() async throws {
        await served?.stop()
    }

    func testAnIdleHTTP1ConnectionIsClosedAfterTheIdleTimeout() async throws {
        let listener = try await start { $0.idleTimeout = .milliseconds(300) }
        let port = try XCTUnwrap(listener.url.split(separator: ":").last.map(String.init))
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
        let run = try PeerProcess.run(RepoPaths.python, ["-c", script, listener.ca, port], timeout: 60)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stdout.split(separator: "\n").map(String.init), ["HTTP/1.1 404 Not Found", "closed"], run.stderr)
    }

    func testAnHTTP1AnswerInFlightWhenTheListenerStopsIsWrittenBeforeItCloses() async throws {
        let listener = try await start()
        let account = try listener.frontDoor.projects.makeServiceAccount(project: "mockapns-test")
        let registration = try listener.frontDoor.register(project: "mockapns-test", platform: .ios, bundleID: "com.example.app", apnsToken: nil)
        let apns = try XCTUnwrap(registration.apnsToken)
        // APNs answers this device's push 2 s late, so the FCM answer is still to come when the listener is told to stop.
        _ = listener.mock.faults.add(FaultRule(token: apns, action: .delay(milliseconds: 2000)))
        let bearer = try listener.bearer(account)
        let body = #"{"message":{"token":"\#(registration.token)","notification":{"title":"Late"}}}"#
        let sender = try PeerProcess.start("/usr/bin/curl", ["-sS", "--http1.1", "--max-time", "30", "--cacert", listener.ca, "-w", "\n%{http_code}",
                                                            "-H", "content-type: application/json", "-H", "authorization: Bearer " + bearer,
                                                            "--data-binary", body, listener.url + "/v1/projects/mockapns-test/messages:send"])
        XCTAssertTrue(Poll.blockingUntil(timeout: .seconds(30)) { listener.mock.faults.entries.first?.fired == 1 }, "the push never reached APNs")
        await listener.group.stop()
        let answered = sender.wait(timeout: 30)
        XCTAssertEqual(answered.status, 0, answered.stderr)
        let lines = answered.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.last, "200", answered.stdout + answered.stderr)
        XCTAssertTrue(answered.stdout.contains("projects/mockapns-test/messages/"), answered.stdout)
    }
}
