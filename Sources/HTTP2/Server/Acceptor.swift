import CSystemShims
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The listening socket, registered on the first loop; hands accepted sockets to the loops round-robin.
// @unchecked Sendable: all state is confined to `loop`'s thread.
final class Acceptor: Selectable, @unchecked Sendable {
    let fd: Int32
    let loop: EventLoop
    private let group: EventLoopGroup
    private let context: ServerContext
    private let loopStates: [ServerLoopState]
    /// Which of the server's ports this is (``HTTP2ConnectionInfo/listener``).
    private let listener: Int
    private var closed = false
    /// Descriptor numbers from here up are kept free: a socket accepted at or above it is closed at once, so the
    /// rest of the process (control plane, recording file, outgoing connections) still gets descriptors when
    /// clients open connections up to the RLIMIT_NOFILE limit. The kernel hands out the lowest free number,
    /// so the accepted socket's own number says how close to the limit the process is.
    private let descriptorCeiling: Int32
    /// A descriptor held in reserve (on /dev/null): when accept fails with EMFILE it is closed, the pending
    /// connection accepted and closed (so it neither waits in the backlog nor wakes the loop again), and reopened.
    private var spareFD: Int32

    init(fd: Int32, loop: EventLoop, group: EventLoopGroup, context: ServerContext, loopStates: [ServerLoopState],
         listener: Int = 0) {
        self.fd = fd
        self.listener = listener
        self.loop = loop
        self.group = group
        self.context = context
        self.loopStates = loopStates
        let soft = csystem_open_files_limit()
        let descriptors = soft < 0 ? Int32.max : Int32(clamping: soft)
        descriptorCeiling = descriptors - max(16, min(256, descriptors / 16))
        spareFD = open("/dev/null", O_RDONLY | O_CLOEXEC)
    }

    func ready(events: UInt32) {
        var accepted = 0
        while !closed && accepted < 128 {
            guard let (socket, peer) = Socket.accept(listener: fd) else {
                let error = errno
                if error == EMFILE || error == ENFILE {
                    descriptorsExhausted(errno: error)
                    if shedWithSpareDescriptor() {
                        accepted += 1   // counts toward the per-wakeup cap, so a stream of clients cannot hold the loop
                        continue
                    }
                }
                if error == EMFILE || error == ENFILE || error == ENOBUFS || error == ENOMEM {
                    // Out of descriptors or memory: stop polling the listener for a moment instead of spinning on it.
                    loop.modify(fd: fd, events: 0)
                    loop.scheduleLocal(in: 100_000_000) { [self] in
                        if !closed { loop.modify(fd: fd, events: IOEvents.input) }
                    }
                }
                break
            }
            accepted += 1
            if socket >= descriptorCeiling {
                Socket.close(socket)
                descriptorsExhausted(errno: EMFILE)
                continue
            }
            if context.shuttingDown.load(ordering: .relaxed) {
                Socket.close(socket)
                continue
            }
            if context.openConnections.load(ordering: .relaxed) >= context.configuration.maxConnections {
                Socket.close(socket)
                refused(peer: Socket.describe(peer))
                continue
            }
            context.openConnections.wrappingAdd(1, ordering: .relaxed)
            let target = group.next()
            let state = loopStates[target.index]
            let context = self.context
            let address = Socket.describe(peer)
            let listener = self.listener
            if target === loop {
                ServerConnection(driver: SocketDriver(fd: socket, loop: target), peer: address, loop: target, context: context,
                                 loopState: state, listener: listener).start()
            } else {
                target.execute {
                    ServerConnection(driver: SocketDriver(fd: socket, loop: target), peer: address, loop: target, context: context,
                                     loopState: state, listener: listener).start()
                }
            }
        }
    }

    private var lastRefusalWarning: UInt64 = 0
    private var refusedSinceWarning = 0

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

    /// Frees the spare descriptor, accepts the pending connection and closes it, and takes the spare back.
    /// Returns false when there is no spare (then the caller backs off).
    private func shedWithSpareDescriptor() -> Bool {
        guard spareFD >= 0 else { return false }
        Socket.close(spareFD)
        spareFD = -1
        let shed = Socket.accept(listener: fd)
        if let (socket, _) = shed { Socket.close(socket) }
        spareFD = open("/dev/null", O_RDONLY | O_CLOEXEC)
        return shed != nil
    }

    private var lastDescriptorWarning: UInt64 = 0
    private var shedSinceWarning = 0

    /// Notes a connection closed for lack of descriptors: one warning a minute at most, with the count, so an
    /// operator learns why clients are turned away without the log flooding.
    private func descriptorsExhausted(errno error: Int32) {
        shedSinceWarning += 1
        let now = monotonicNanoseconds()
        guard lastDescriptorWarning == 0 || now &- lastDescriptorWarning >= 60_000_000_000 else { return }
        context.configuration.logger.warning("out of file descriptors: closing new connections (raise ulimit -n)", metadata: [
            "open_connections": "\(context.openConnections.load(ordering: .relaxed))",
            "descriptor_ceiling": "\(descriptorCeiling)", "closed": "\(shedSinceWarning)",
            "error": "\(String(cString: strerror(error)))",
        ])
        lastDescriptorWarning = now
        shedSinceWarning = 0
    }

    func loopStopped() { close() }

    /// Stops accepting and closes the listening socket. Loop thread only.
    func close() {
        guard !closed else { return }
        closed = true
        loop.deregister(fd: fd)
        Socket.close(fd)
        if spareFD >= 0 {
            Socket.close(spareFD)
            spareFD = -1
        }
    }
}
