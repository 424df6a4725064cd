import APNsModel
import Foundation
import Glibc
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `mockapns serve` under a low descriptor limit (`ulimit -n 128`): clients opening connections until the limit
/// are turned away with one log line, `/healthz` keeps answering, and closing some lets a new client in.
final class ServeDescriptorLimitTests: XCTestCase {
    /// A TCP connection to 127.0.0.1:`port` that sent the HTTP/2 preface (so the preface timeout leaves it alone);
    /// nil if connect failed.
    private func openH2C(port: Int) -> Int32? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { close(fd); return nil }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let preface = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8) + [0, 0, 0, 4, 0, 0, 0, 0, 0]
        _ = preface.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        return fd
    }

    /// Whether the server served this connection (sent its SETTINGS) rather than closing it at once.
    private func served(_ fd: Int32) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 512)
        return recv(fd, &buffer, buffer.count, 0) >= 9 && buffer[3] == 4
    }

    func testOutOfDescriptorsLogsOnceKeepsHealthzAndRecovers() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("mockapns-nofile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let ready = directory.appendingPathComponent("ready.json").path
        let log = directory.appendingPathComponent("serve.log")
        XCTAssertTrue(FileManager.default.createFile(atPath: log.path, contents: nil))
        let logHandle = try FileHandle(forWritingTo: log)
        let serve = Process()
        serve.executableURL = URL(fileURLWithPath: "/bin/bash")
        serve.arguments = [
            "-c", #"ulimit -n 128 && exec "$0" "$@""#, try InspectCLI.binary.path,
            "serve", "--h2c", "--port", "0", "--control-port", "0", "--loops", "1", "--ready-file", ready,
        ]
        serve.standardOutput = logHandle
        serve.standardError = logHandle
        try serve.run()
        defer {
            if serve.isRunning { serve.interrupt() }
            serve.waitUntilExit()
            try? logHandle.close()
        }

        let readyJSON = try await InspectCLI.readyFile(at: ready)
        let apnsURL = try XCTUnwrap(URL(string: try XCTUnwrap(readyJSON?["apns_url"]?.stringValue, "no apns_url")))
        let controlURL = try XCTUnwrap(readyJSON?["control_url"]?.stringValue, "no control_url")
        let port = try XCTUnwrap(apnsURL.port)

        // More connections than the limit allows: the first ones are served, the rest closed at once.
        var held: [Int32] = []
        var turnedAway = 0
        defer { for fd in held { close(fd) } }
        for _ in 0..<150 {
            guard let fd = openH2C(port: port) else { turnedAway += 1; continue }
            if served(fd) { held.append(fd) } else { close(fd); turnedAway += 1 }
        }
        XCTAssertGreaterThan(held.count, 20, "hardly any connection was served under the limit")
        XCTAssertGreaterThan(turnedAway, 0, "150 connections fit under ulimit -n 128?")

        // The control plane still has descriptors.
        let (body, response) = try await URLSession.shared.data(from: URL(string: "\(controlURL)/healthz")!)
        XCTAssertEqual((response as? HTTPURLResponse)?.statusCode, 200, String(decoding: body, as: UTF8.self))

        // One warning for all those connections (rate-limited to one a minute).
        let text = String(decoding: try Data(contentsOf: log), as: UTF8.self)
        XCTAssertEqual(text.components(separatedBy: "out of file descriptors").count - 1, 1, text)

        // Once some clients leave, a new one gets in.
        for fd in held.prefix(10) { close(fd) }
        held.removeFirst(10)
        var admitted = false
        for _ in 0..<100 where !admitted {
            if let fd = openH2C(port: port) {
                if served(fd) { admitted = true; held.append(fd) } else { close(fd) }
            }
            if !admitted { try await Task.sleep(for: .milliseconds(50)) }
        }
        XCTAssertTrue(admitted, "no new client was served after others closed")
    }
}
