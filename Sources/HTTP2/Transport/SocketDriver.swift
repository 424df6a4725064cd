/// The socket driver (``ConnectionDriver``): one non-blocking socket registered with the loop's poller (epoll, or
/// `poll(2)` on macOS and under `MOCKAPNS_IO_DRIVER=poll`). Readiness becomes calls on the core; the core's output
/// becomes `send`s.
// Confined to its loop's thread, like its core (not Sendable).
final class SocketDriver: ConnectionDriver, Selectable {
    let fd: Int32
    let loop: EventLoop
    /// The connection it serves, held until `close()` (the core holds the driver too; closing breaks the cycle).
    @exclusivity(unchecked) private var core: ConnectionCore?
    @exclusivity(unchecked) private var registered = false
    @exclusivity(unchecked) private var closed = false

    init(fd: Int32, loop: EventLoop) {
        self.fd = fd
        self.loop = loop
    }

    func attach(_ core: ConnectionCore, interest: UInt32) throws(HTTP2Error) {
        self.core = core
        try loop.register(fd: fd, events: interest, handler: self)
        registered = true
    }

    @inline(__always)
    func write(_ pointer: UnsafeRawPointer, _ count: Int) -> Int {
        Socket.send(fd, pointer, count)
    }

    func setInterest(_ events: UInt32) {
        loop.modify(fd: fd, events: events)
    }

    func close() {
        if closed { return }
        closed = true
        if registered { loop.deregister(fd: fd) }
        Socket.close(fd)
        core = nil
    }

    // MARK: - Selectable

    func ready(events: UInt32) {
        guard let core else { return }
        if events & (IOEvents.error | IOEvents.hangup) != 0 && events & IOEvents.input == 0 {
            core.transportEnded(error: core.phase == .connecting ? Socket.pendingError(fd) ?? "the connection was closed" : nil)
            return
        }
        if core.phase == .connecting {
            if events & IOEvents.output != 0 { core.connectCompleted(error: Socket.pendingError(fd)) }
            return
        }
        if events & IOEvents.input != 0 { readAvailable(core) }
        if events & IOEvents.output != 0 { core.transportWritable() }
    }

    /// Reads what the socket has (at most 16 reads per wake-up, for fairness) while the core takes input.
    private func readAvailable(_ core: ConnectionCore) {
        let buffer = loop.readBuffer.baseAddress!
        var reads = 0
        while core.wantsInput && reads < 16 {
            reads += 1
            let n = Socket.receive(fd, buffer, EventLoop.readBufferSize)
            if n == -1 { break }
            if n <= 0 {
                core.transportEnded()
                return
            }
            core.receive(UnsafeRawBufferPointer(start: buffer, count: n))
            if n < EventLoop.readBufferSize { break }
        }
    }

    func loopStopped() {
        if let core {
            core.loopStopped()
        } else {
            close()
        }
    }
}
