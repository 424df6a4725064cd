import Glibc

/// The listening socket, registered on the first loop; hands accepted sockets to the loops round-robin.
// @unchecked Sendable: all state is confined to `loop`'s thread.
final class Acceptor: Selectable, @unchecked Sendable {
    let fd: Int32
    let loop: EventLoop
    private let group: EventLoopGroup
    private let context: ServerContext
    private let loopStates: [ServerLoopState]
    private var closed = false

    init(fd: Int32, loop: EventLoop, group: EventLoopGroup, context: ServerContext, loopStates: [ServerLoopState]) {
        self.fd = fd
        self.loop = loop
        self.group = group
        self.context = context
        self.loopStates = loopStates
    }

    func ready(events: UInt32) {
        var accepted = 0
        while !closed && accepted < 128 {
            guard let (socket, peer) = Socket.accept(listener: fd) else {
                if errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM {
                    // Out of descriptors: stop polling the listener for a moment instead of spinning on it.
                    loop.modify(fd: fd, events: 0)
                    loop.scheduleLocal(in: 100_000_000) { [self] in
                        if !closed { loop.modify(fd: fd, events: EpollEvents.input) }
                    }
                }
                break
            }
            accepted += 1
            if context.shuttingDown.load(ordering: .relaxed) {
                Glibc.close(socket)
                continue
            }
            if context.openConnections.load(ordering: .relaxed) >= context.configuration.maxConnections {
                Glibc.close(socket)
                refused(peer: Socket.describe(peer))
                continue
            }
            context.openConnections.wrappingAdd(1, ordering: .relaxed)
            let target = group.next()
            let state = loopStates[target.index]
            let context = self.context
            let address = Socket.describe(peer)
            if target === loop {
                ServerConnection(fd: socket, peer: address, loop: target, context: context, loopState: state).start()
            } else {
                target.execute {
                    ServerConnection(fd: socket, peer: address, loop: target, context: context, loopState: state).start()
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

    func loopStopped() { close() }

    /// Stops accepting and closes the listening socket. Loop thread only.
    func close() {
        guard !closed else { return }
        closed = true
        loop.deregister(fd: fd)
        Glibc.close(fd)
    }
}
