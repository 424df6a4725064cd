#if os(Linux)
import Foundation
import Glibc
import HTTP2
import HTTP2TestSupport
import XCTest

/// The options the transport sets on its TCP sockets, read back from the sockets themselves (the test process holds
/// both ends): Nagle off on the server's accepted socket and on the client's, and nothing else switched on by mistake
/// (`SO_DEBUG`, which an unprivileged process may not set, shares its number with `TCP_NODELAY` at another level).
final class SocketOptionsTests: ClientServerTestCase {
    func testBothEndsHaveNagleOffAndNoDebugOption() async throws {
        let (server, _) = try await startServer()
        let connection = try await connect(server, host: "127.0.0.1", tls: trustTestCA)
        let response = try await connection.send(HTTP2ClientRequest(method: "GET", path: "/echo"))
        XCTAssertEqual(response.status, 200)
        var checked = 0
        for entry in try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") {
            guard let fd = Int32(entry), let ports = Self.connectedTCPPorts(fd),
                  ports.local == server.localPort || ports.peer == server.localPort else { continue }
            XCTAssertEqual(Self.option(fd, level: Int32(IPPROTO_TCP), name: TCP_NODELAY), 1, "TCP_NODELAY on \(ports)")
            XCTAssertEqual(Self.option(fd, level: SOL_SOCKET, name: SO_DEBUG), 0, "SO_DEBUG on \(ports)")
            checked += 1
        }
        XCTAssertEqual(checked, 2, "the client's socket and the server's")
        await connection.close()
    }

    /// The local and peer ports of `fd` when it is a connected IPv4 TCP socket.
    private static func connectedTCPPorts(_ fd: Int32) -> (local: Int, peer: Int)? {
        var type: Int32 = 0
        var size = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &size) == 0, type == Int32(SOCK_STREAM.rawValue) else { return nil }
        func port(_ call: (Int32, UnsafeMutablePointer<sockaddr>, UnsafeMutablePointer<socklen_t>) -> Int32) -> Int? {
            var address = sockaddr_in()
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let result = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { call(fd, $0, &length) }
            }
            guard result == 0, address.sin_family == sa_family_t(AF_INET) else { return nil }
            return Int(UInt16(bigEndian: address.sin_port))
        }
        guard let local = port({ getsockname($0, $1, $2) }), let peer = port({ getpeername($0, $1, $2) }) else { return nil }
        return (local, peer)
    }

    private static func option(_ fd: Int32, level: Int32, name: Int32) -> Int32 {
        var value: Int32 = -1
        var size = socklen_t(MemoryLayout<Int32>.size)
        return getsockopt(fd, level, name, &value, &size) == 0 ? value : -1
    }
}
#endif
