import Foundation
import Glibc
import Logging
import MockAPNs

/// The HTTP/2 input path: the bytes are what a client sends on one h2c connection to a real `MockAPNsServer`
/// (transport, nghttp2 session, pipeline, in-memory recorder), started once per process on a loopback port.
///
/// The HTTP2 module has no in-memory connection, so each input gets its own loopback TCP connection: the
/// target writes the bytes (reading answers meanwhile, so the server is never blocked on output), half-closes,
/// and reads until the server closes — so when `run` returns, the server has processed every byte. An input
/// whose first byte is even is prefixed with the HTTP/2 client preface, so mutations mostly exercise frames.
public enum HTTP2FuzzTarget {
    /// How long one input may keep the connection open (a server that never closes is cut off, not a hang).
    static let deadline: Duration = .seconds(2)

    /// The server, started on first use.
    static let server: MockAPNsServer = {
        var configuration = MockServerConfiguration()
        configuration.port = 0
        configuration.tls = false
        configuration.loopCount = 1
        configuration.memoryLimit = 256
        configuration.credentialsDirectory = FuzzCredentials.credentials.directory
        var logger = Logger(label: "fuzz")
        logger.logLevel = .critical
        configuration.logger = logger
        do {
            let server = try MockAPNsServer(configuration: configuration)
            try server.start()
            return server
        } catch {
            fatalError("fuzz setup: \(error)")
        }
    }()

    static let preface = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)

    /// Runs one input.
    public static func run(_ bytes: [UInt8]) {
        let input = (bytes.first ?? 0) & 1 == 0 ? preface + bytes.dropFirst() : Array(bytes.dropFirst())
        let fd = connect(port: server.port)
        defer {
            // An abortive close (RST): no TIME_WAIT, so millions of runs do not use up loopback ports.
            var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
            _ = setsockopt(fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
            Glibc.close(fd)
        }
        exchange(fd: fd, input: input)
    }

    private static func connect(port: Int) -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        precondition(fd >= 0, "socket: \(errno)")
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let rc = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        precondition(rc == 0, "connect to the fuzzed server: \(errno)")
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        return fd
    }

    /// Writes `input`, half-closes, and reads until the server closes or the deadline passes.
    private static func exchange(fd: Int32, input: [UInt8]) {
        let end = ContinuousClock.now + deadline
        var written = 0
        var halfClosed = false
        var scratch = [UInt8](repeating: 0, count: 65_536)
        while ContinuousClock.now < end {
            if written == input.count && !halfClosed {
                shutdown(fd, Int32(SHUT_WR))
                halfClosed = true
            }
            var poller = pollfd(fd: fd, events: Int16(POLLIN) | (halfClosed ? 0 : Int16(POLLOUT)), revents: 0)
            guard poll(&poller, 1, 100) >= 0 else { return }
            if poller.revents & Int16(POLLOUT) != 0 && !halfClosed {
                let n = input.withUnsafeBytes { send(fd, $0.baseAddress! + written, input.count - written, Int32(MSG_NOSIGNAL)) }
                if n > 0 { written += n } else if errno != EAGAIN { return }
            }
            if poller.revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
                let n = scratch.withUnsafeMutableBytes { recv(fd, $0.baseAddress!, $0.count, 0) }
                if n == 0 || (n < 0 && errno != EAGAIN) { return }
            }
        }
    }
}
