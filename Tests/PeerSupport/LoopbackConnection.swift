import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A blocking TCP connection to 127.0.0.1, for tests that send what no HTTP client would (a bare preface, garbage,
/// nothing at all) or count how many connections a server takes. Closed when released. POSIX calls only, with the
/// one Linux spelling (`MSG_NOSIGNAL`) beside its Darwin counterpart (`SO_NOSIGPIPE`), so the suites that use it
/// build on macOS as well.
public final class LoopbackConnection {
    /// The socket; -1 once closed.
    public private(set) var descriptor: Int32

    /// What an HTTP/2 client sends first over cleartext (h2c, prior knowledge): the connection preface and an empty
    /// SETTINGS frame.
    public static let http2Preface = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8) + [0, 0, 0, 4, 0, 0, 0, 0, 0]

    /// `SOCK_STREAM` as `socket(2)` takes it: an enum in Glibc, a plain integer in Darwin.
    public static var streamType: Int32 {
        #if canImport(Glibc)
        Int32(SOCK_STREAM.rawValue)
        #else
        SOCK_STREAM
        #endif
    }

    /// Connects to 127.0.0.1:`port`, reads giving up after `receiveTimeout` seconds of silence; nil when the
    /// connection is refused.
    public init?(port: Int, receiveTimeout seconds: Int = 20) {
        let fd = socket(AF_INET, Self.streamType, 0)
        guard fd >= 0 else { return nil }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            Self.closeDescriptor(fd)
            return nil
        }
        var timeout = timeval(tv_sec: .init(seconds), tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        #if canImport(Darwin)
        var on: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
        #endif
        descriptor = fd
    }

    deinit { close() }

    /// Whether something accepts connections on 127.0.0.1:`port` now.
    public static func canConnect(port: Int) -> Bool {
        LoopbackConnection(port: port) != nil
    }

    /// Writes all of `bytes`; false when the peer is gone (never a SIGPIPE).
    @discardableResult
    public func send(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { bytes in
                #if canImport(Glibc)
                Glibc.send(descriptor, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL))
                #else
                Darwin.send(descriptor, bytes.baseAddress, bytes.count, 0)
                #endif
            }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return false }
            offset += written
        }
        return true
    }

    /// One `recv(2)` into `buffer`: the byte count, 0 when the peer closed, -1 on an error or the receive timeout.
    public func receive(into buffer: inout [UInt8]) -> Int {
        buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
    }

    /// Reads until the server closes the connection or the receive timeout passes: what arrived, and whether the
    /// server closed it (an orderly close or a reset) rather than the wait running out.
    public func readUntilClosed() -> (bytes: [UInt8], closedByServer: Bool) {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = receive(into: &buffer)
            if count == 0 { return (received, true) }
            if count < 0 {
                if errno == EINTR { continue }
                return (received, errno == ECONNRESET)
            }
            received += buffer[0..<count]
        }
    }

    /// Closes the socket (again: nothing).
    public func close() {
        guard descriptor >= 0 else { return }
        Self.closeDescriptor(descriptor)
        descriptor = -1
    }

    private static func closeDescriptor(_ fd: Int32) {
        #if canImport(Glibc)
        _ = Glibc.close(fd)
        #else
        _ = Darwin.close(fd)
        #endif
    }
}
