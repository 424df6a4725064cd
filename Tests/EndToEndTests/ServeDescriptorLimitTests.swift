import APNsModel
import Foundation
import PeerSupport
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `mockapns serve` under a low descriptor limit (`ulimit -n 128`): clients opening connections until the limit
/// are turned away with one log line, `/healthz` keeps answering, and closing some lets a new client in.
final class ServeDescriptorLimitTests: LeakCheckedTestCase {
    /// A TCP connection to 127.0.0.1:`port` that sent the HTTP/2 preface (so the preface timeout leaves it alone);
    /// nil if connect failed.
    private func openH2C(port: Int) -> LoopbackConnection? {
        guard let connection = LoopbackConnection(port: port, receiveTimeout: 10) else { return nil }
        connection.send(LoopbackConnection.http2Preface)
        return connection
    }

    /// Whether the server served this connection (sent its SETTINGS) rather than closing it at once.
    private func served(_ connection: LoopbackConnection) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 512)
        return connection.receive(into: &buffer) >= 9 && buffer[3] == 4
    }

    func testOutOfDescriptorsLogsOnceKeepsHealthzAndRecovers() async throws {
        let directory = URL(fileURLWithPath: try makeTestDirectory("mockapns-nofile"))
        let ready = directory.appendingPathComponent("ready.json").path
        let serve = try await ServedMock.start(["--h2c", "--port", "0", "--control-port", "0", "--loops", "1"], readyFile: ready,
                                               shellPrefix: "ulimit -n 128")
        defer { serve.stop() }
        let apnsURL = try XCTUnwrap(URL(string: serve.apnsURL))
        let controlURL = try XCTUnwrap(serve.controlURL, "no control_url")
        let port = try XCTUnwrap(apnsURL.port)

        // More connections than the limit allows: the first ones are served, the rest closed at once.
        var held: [LoopbackConnection] = []   // closed when released
        var turnedAway = 0
        for _ in 0..<150 {
            guard let connection = openH2C(port: port) else { turnedAway += 1; continue }
            if served(connection) { held.append(connection) } else { turnedAway += 1 }
        }
        XCTAssertGreaterThan(held.count, 20, "hardly any connection was served under the limit")
        XCTAssertGreaterThan(turnedAway, 0, "150 connections fit under ulimit -n 128?")

        // The control plane still has descriptors.
        let (body, response) = try await URLSession.shared.data(from: URL(string: "\(controlURL)/healthz")!)
        XCTAssertEqual((response as? HTTPURLResponse)?.statusCode, 200, String(decoding: body, as: UTF8.self))

        // One warning for all those connections (rate-limited to one a minute).
        let text = serve.process.stdout + serve.process.stderr
        XCTAssertEqual(text.components(separatedBy: "out of file descriptors").count - 1, 1, text)
        XCTAssertTrue(text.contains("descriptor limit (RLIMIT_NOFILE) is 128: raise it with `ulimit -n"), text)

        // Once some clients leave, a new one gets in.
        for connection in held.prefix(10) { connection.close() }
        held.removeFirst(10)
        var admitted = false
        for _ in 0..<100 where !admitted {
            if let connection = openH2C(port: port), served(connection) {
                admitted = true
                held.append(connection)
            }
            if !admitted { try await Task.sleep(for: .milliseconds(50)) }
        }
        XCTAssertTrue(admitted, "no new client was served after others closed")
    }
}
