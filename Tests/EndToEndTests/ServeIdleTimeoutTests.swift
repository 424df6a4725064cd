import APNsModel
import Foundation
import Glibc
import XCTest

/// `mockapns serve --idle-timeout`: an idle connection gets APNs's GOAWAY `{"reason":"IdleTimeout"}`, then is closed.
final class ServeIdleTimeoutTests: XCTestCase {
    func testIdleConnectionGetsGoAwayIdleTimeout() async throws {
        let ready = FileManager.default.temporaryDirectory.appendingPathComponent("ready-\(UUID().uuidString).json").path
        defer { try? FileManager.default.removeItem(atPath: ready) }
        let serve = try InspectFollowProcess(["serve", "--h2c", "--port", "0", "--no-control", "--idle-timeout", "1", "--ready-file", ready])
        defer { serve.stop() }
        let readyJSON = try await InspectCLI.readyFile(at: ready)
        let port = try XCTUnwrap(URL(string: try XCTUnwrap(readyJSON?["apns_url"]?.stringValue))?.port)

        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        XCTAssertEqual(connected, 0)
        var timeout = timeval(tv_sec: 20, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let preface = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8) + [0, 0, 0, 4, 0, 0, 0, 0, 0]
        _ = preface.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }

        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        var closedByServer = false
        while true {
            let n = recv(fd, &buffer, buffer.count, 0)
            if n <= 0 { closedByServer = n == 0 || errno == ECONNRESET; break }
            received += buffer[0..<n]
        }
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
