#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import NIOCore

/// A handler on a listening channel that decides, for each accepted connection, whether it is served — before NIO
/// registers it on a loop:
///
/// - **The descriptor ceiling.** Descriptor numbers from the ceiling up are kept free: a connection accepted when
///   the lowest free number has reached it is closed at once, so the rest of the process (control plane, record
///   file, database and outgoing connections) still gets descriptors when clients open connections up to
///   `RLIMIT_NOFILE`. The kernel hands out the lowest free number, so the next one says how close the process is.
/// - **`maxConnections`**, and shutdown: connections beyond the limit, or arriving while the server stops, are closed.
/// - **Warnings an operator can act on**, rate-limited: "out of file descriptors" once a minute, "connection limit
///   reached" once a second, each with how many were closed since the last one. Accepting when the process is out of
///   descriptors (`EMFILE`) is backed off by NIO's `AcceptBackoffHandler`, placed before this one; its error is
///   said here.
final class AcceptGate: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = any Channel
    typealias InboundOut = any Channel

    private let context: ServerContext
    /// The process's soft `RLIMIT_NOFILE`, which the warning names: a macOS shell starts at 256, which leaves room
    /// for about 240 connections.
    private let descriptorLimit: Int32
    private let descriptorCeiling: Int32
    /// Held open for the life of the listener: `fcntl(F_DUPFD)` on it finds the lowest free descriptor number.
    private let probe: Int32
    private var lastDescriptorWarning: UInt64 = 0
    private var shedSinceWarning = 0
    private var lastRefusalWarning: UInt64 = 0
    private var refusedSinceWarning = 0

    init(context: ServerContext) {
        self.context = context
        let soft = Self.openFilesLimit()
        descriptorLimit = soft
        descriptorCeiling = soft - max(16, min(256, soft / 16))
        probe = open("/dev/null", O_RDONLY | O_CLOEXEC)
    }

    /// The soft `RLIMIT_NOFILE`, or `Int32.max` when unlimited or unknown.
    private static func openFilesLimit() -> Int32 {
        var limit = rlimit()
        #if canImport(Glibc)
        let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        #else
        let resource = RLIMIT_NOFILE
        #endif
        // RLIM_INFINITY is all ones, far above Int32.max, so clamping turns "unlimited" into "no ceiling" too.
        guard getrlimit(resource, &limit) == 0 else { return Int32.max }
        return Int32(clamping: limit.rlim_cur)
    }

    deinit {
        if probe >= 0 { close(probe) }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let accepted = unwrapInboundIn(data)
        if nearDescriptorLimit() {
            accepted.close(promise: nil)
            descriptorsExhausted(errno: EMFILE)
            return
        }
        if self.context.shuttingDown.load(ordering: .relaxed) {
            accepted.close(promise: nil)
            return
        }
        if self.context.openConnections.load(ordering: .relaxed) >= self.context.configuration.maxConnections {
            let peer = SocketAddress.peerText(accepted.remoteAddress)
            accepted.close(promise: nil)
            refused(peer: peer)
            return
        }
        context.fireChannelRead(data)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if let error = error as? IOError, error.errnoCode == EMFILE || error.errnoCode == ENFILE {
            descriptorsExhausted(errno: error.errnoCode)
            return
        }
        context.fireErrorCaught(error)
    }

    /// Whether the lowest free descriptor number has reached the ceiling (two system calls per accepted connection).
    private func nearDescriptorLimit() -> Bool {
        guard probe >= 0 else { return false }
        let lowest = fcntl(probe, F_DUPFD_CLOEXEC, 0)
        guard lowest >= 0 else { return true }   // none free at all
        close(lowest)
        return lowest >= descriptorCeiling
    }

    /// Notes a connection closed for being over `maxConnections`: one warning a second at most, with the count.
    private func refused(peer: String) {
        refusedSinceWarning += 1
        let now = monotonicNanoseconds()
        guard lastRefusalWarning == 0 || now &- lastRefusalWarning >= 1_000_000_000 else { return }
        context.configuration.logger.warning("connection limit reached: closed new connections", metadata: [
            "limit": "\(context.configuration.maxConnections)", "closed": "\(refusedSinceWarning)", "last_peer": "\(peer)",
        ])
        lastRefusalWarning = now
        refusedSinceWarning = 0
    }

    /// Notes a connection closed (or not accepted) for lack of descriptors: one warning a minute at most, with the
    /// count, so an operator learns why clients are turned away without the log flooding. It names the process's
    /// descriptor limit and how to raise it, since the limit is the shell's (`ulimit -n`), not the mock's.
    private func descriptorsExhausted(errno error: Int32) {
        shedSinceWarning += 1
        let now = monotonicNanoseconds()
        guard lastDescriptorWarning == 0 || now &- lastDescriptorWarning >= 60_000_000_000 else { return }
        let limit = descriptorLimit == Int32.max ? "unlimited" : "\(descriptorLimit)"
        context.configuration.logger.warning("""
            out of file descriptors: closing new connections; the process's descriptor limit (RLIMIT_NOFILE) is \
            \(limit): raise it with `ulimit -n 65536` in the shell that starts it
            """, metadata: [
            "open_connections": "\(context.openConnections.load(ordering: .relaxed))",
            "descriptor_limit": "\(limit)", "descriptor_ceiling": "\(descriptorCeiling)",
            "closed": "\(shedSinceWarning)", "error": "\(String(cString: strerror(error)))",
        ])
        lastDescriptorWarning = now
        shedSinceWarning = 0
    }
}
