import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A TCP socket listening on 127.0.0.1 that never accepts: a port a test holds taken, so that a server told to bind
/// it must fail. Closed when released.
public final class LoopbackListener {
    /// The port it holds.
    public let port: Int
    private var descriptor: Int32

    /// Listens on a free port of 127.0.0.1.
    public init() throws {
        let fd = socket(AF_INET, LoopbackConnection.streamType, 0)
        guard fd >= 0 else { throw PeerProcess.PeerError.system("socket() failed") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && listen(fd, 1) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard bound else {
            _ = systemClose(fd)
            throw PeerProcess.PeerError.system("bind() and listen() on a free port failed")
        }
        descriptor = fd
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit { close() }

    /// Lets the port go.
    public func close() {
        guard descriptor >= 0 else { return }
        _ = systemClose(descriptor)
        descriptor = -1
    }

    /// Whether something accepts connections on 127.0.0.1:`port` now.
    public static func accepts(port: Int) -> Bool {
        LoopbackConnection.canConnect(port: port)
    }
}

/// `close(2)`, named apart from ``LoopbackListener/close()``.
private func systemClose(_ descriptor: Int32) -> Int32 {
    #if canImport(Glibc)
    Glibc.close(descriptor)
    #elseif canImport(Darwin)
    Darwin.close(descriptor)
    #endif
}
