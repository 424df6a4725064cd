import APNsModel
import Foundation
import PeerSupport
import XCTest

/// `mockapns serve --idle-timeout`: an idle connection gets APNs's GOAWAY `{"reason":"IdleTimeout"}`, then is closed.
final class ServeIdleTimeoutTests: LeakCheckedTestCase {
    func testIdleConnectionGetsGoAwayIdleTimeout() async throws {
        let ready = try makeTestDirectory("idle-timeout", file: "ready.json")
        let serve = try await ServedMock.start(["--h2c", "--port", "0", "--no-control", "--idle-timeout", "1"], readyFile: ready)
        defer { serve.stop() }
        let readyJSON = serve.ready
        let port = try XCTUnwrap(URL(string: try XCTUnwrap(readyJSON["apns_url"]?.stringValue))?.port)

        let connection = try XCTUnwrap(LoopbackConnection(port: port, receiveTimeout: 20), "cannot connect to port \(port)")
        connection.send(LoopbackConnection.http2Preface)
        let (received, closedByServer) = connection.readUntilClosed()
        XCTAssertTrue(closedByServer, "the idle connection was not closed")
        var goAway: [UInt8]?
        var offset = 0
        while offset + 9 <= received.count {
            let length = Int(received[offset]) << 16 | Int(received[offset + 1]) << 8 | Int(received[offset + 2])
            guard offset + 9 + length <= received.count else { break }
            if received[offset + 3] == 7 { goAway = Array(received[(offset + 9)..<(offset + 9 + length)]) }
            offset += 9 + length
        }
        let payload = try XCTUnwrap(goAway, "no GOAWAY before the close")
        XCTAssertEqual(Array(payload[4..<8]), [0, 0, 0, 0], "NO_ERROR")
        XCTAssertEqual(String(decoding: payload[8...], as: UTF8.self), #"{"reason":"IdleTimeout"}"#)
    }

    func testNegativeIdleTimeoutIsRefused() async throws {
        let result = try await InspectCLI.run(["serve", "--idle-timeout", "-1", "--no-control"])
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderr.contains("--idle-timeout"), result.stderr)
    }
}
