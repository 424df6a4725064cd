#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import NIOCore

/// The SwiftNIO driver (``ConnectionDriver``): the only handler of a connection's NIO channel. On a server it opens
/// the ``ServerConnection`` when an accepted channel becomes active; a client's ``ClientConnection`` attaches itself
/// once the channel has connected. It hands the connection every read as it comes, and writes what the connection
/// flushes as one `ByteBuffer` (reused while NIO does not hold it). TLS and HTTP/2 stay in the core; NIO moves raw
/// bytes only.
///
/// Back-pressure both ways: a `read()` is held while the core takes no input (NIO reads nothing more), and a write
/// is refused (0 taken) while the channel is not writable; the core keeps those bytes and is told when it can write
/// again (`channelWritabilityChanged`).
// Confined to its channel's loop thread, like its core.
final class NIOChannelDriver: ChannelDuplexHandler, ConnectionDriver {
    typealias InboundIn = ByteBuffer
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// Which side of the connection this channel is.
    enum Role: Sendable {
        /// Accepted on `listener` (``HTTP2ConnectionInfo/listener``): the driver opens a ``ServerConnection``.
        case server(ServerContext, ServerLoopState, listener: Int)
        /// Connected by a client: the ``ClientConnection`` attaches itself.
        case client
    }

    let loop: NIOConnectionLoop
    private let role: Role
    @exclusivity(unchecked) private var context: ChannelHandlerContext?
    /// The connection it serves, held until `close()` (the core holds the driver too; closing breaks the cycle).
    @exclusivity(unchecked) private var core: ConnectionCore?
    /// What the core waits for (``IOEvents`` bits).
    @exclusivity(unchecked) private var interest: UInt32 = 0
    @exclusivity(unchecked) private var writable = true
    /// NIO asked to read while the core took no input: passed on once it does.
    @exclusivity(unchecked) private var readHeld = false
    /// Bytes that arrived while the core took no input (a read already under way when it paused).
    @exclusivity(unchecked) private var pendingInbound: ByteBuffer?
    @exclusivity(unchecked) private var deliveryQueued = false
    /// Output, reused from flush to flush (a new one only while NIO still holds the last).
    @exclusivity(unchecked) private var output = ByteBuffer()
    @exclusivity(unchecked) private var closed = false
    @exclusivity(unchecked) private var inactive = false
    /// Inside ``write(_:_:)``. NIO may call back into the pipeline from within `writeAndFlush`: when a write fails
    /// (a peer that reset the connection) it reads what is left on the socket (`channelRead`), reports the end
    /// (`channelInactive`), and a flush can change writability. The core is then in the middle of handing over its TLS
    /// output; whatever it would do with these (a close_notify read closes it and frees its TLS buffers) must wait
    /// until the write has returned. So reads are held and delivered by a task, and the end (`endAfterWrite`) and
    /// writability follow as tasks too, in the order NIO reported them.
    @exclusivity(unchecked) private var writing = false
    @exclusivity(unchecked) private var endAfterWrite = false
    /// A server's connection has been opened (once, whether the channel was active when the driver was added or became so).
    @exclusivity(unchecked) private var opened = false

    init(loop: NIOConnectionLoop, role: Role) {
        self.loop = loop
        self.role = role
    }

    // MARK: - ConnectionDriver

    func attach(_ core: ConnectionCore, interest: UInt32) throws(HTTP2Error) {
        // A client's channel may have closed between its connect and this call.
        guard !inactive && !closed else { throw .system(operation: "attach (the connection closed)", errno: ENOTCONN) }
        self.core = core
        self.interest = interest
    }

    @inline(__always)
    func write(_ pointer: UnsafeRawPointer, _ count: Int) -> Int {
        guard !closed, let context else { return -1 }
        guard writable else { return 0 }
        output.clear()
        output.writeBytes(UnsafeRawBufferPointer(start: pointer, count: count))
        writing = true
        context.writeAndFlush(NIOAny(output), promise: nil)
        writing = false
        if endAfterWrite {
            endAfterWrite = false
            loop.nio.assumeIsolatedUnsafeUnchecked().execute { [self] in core?.transportEnded() }
        }
        return count
    }

    func setInterest(_ events: UInt32) {
        let resumed = events & IOEvents.input != 0 && interest & IOEvents.input == 0
        interest = events
        guard resumed else { return }
        if readHeld, let context {
            readHeld = false
            context.read()
        }
        // Not now: this is called from inside the core's flush.
        if pendingInbound != nil { queueDelivery() }
    }

    /// Hands what is held to the core in a task of its own, outside whatever is running now.
    private func queueDelivery() {
        guard !deliveryQueued else { return }
        deliveryQueued = true
        loop.nio.assumeIsolatedUnsafeUnchecked().execute { [self] in deliverPending() }
    }

    func close() {
        if closed { return }
        closed = true
        core = nil
        pendingInbound = nil
        if !inactive { context?.close(promise: nil) }
    }

    // MARK: - Channel events

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        // Added by a connection setup after the channel went active (``HTTP2ConnectionIntake``): NIO says so no more.
        if context.channel.isActive { channelActive(context: context) }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
    }

    func channelActive(context: ChannelHandlerContext) {
        guard case let .server(server, loopState, listener) = role, !opened else { return }
        opened = true
        // Checked again: `AcceptGate` let it in, but others may have opened since on other loops.
        if server.shuttingDown.load(ordering: .relaxed)
            || server.openConnections.load(ordering: .relaxed) >= server.configuration.maxConnections {
            closed = true
            context.close(promise: nil)
            return
        }
        server.openConnections.wrappingAdd(1, ordering: .relaxed)
        loop.now = monotonicNanoseconds()
        ServerConnection(driver: self, peer: SocketAddress.peerText(context.channel.remoteAddress), loop: loop, context: server,
                         loopState: loopState, listener: listener).start()
    }

    @inline(__always)
    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let buffer = unwrapInboundIn(data)
        guard let core else {
            // A client's channel is read before its connection attaches, and an h2c server speaks first (its
            // SETTINGS): kept for the connection, which takes it once it takes input (`setInterest`).
            if !closed { hold(buffer) }
            return
        }
        loop.now = monotonicNanoseconds()
        if writing {
            // NIO reading inside our write: the core takes it once the write has returned.
            hold(buffer)
            queueDelivery()
        } else if pendingInbound == nil && core.wantsInput {
            buffer.withUnsafeReadableBytes { core.receive($0) }
        } else {
            hold(buffer)
        }
    }

    /// Keeps `buffer` after what already waits for the core.
    private func hold(_ buffer: ByteBuffer) {
        if pendingInbound == nil {
            pendingInbound = buffer
        } else {
            var buffer = buffer
            pendingInbound!.writeBuffer(&buffer)
        }
    }

    /// Hands over what waited while the core took no input, a read's worth at a time while it takes it.
    private func deliverPending() {
        deliveryQueued = false
        guard let core, var pending = pendingInbound else { return }
        pendingInbound = nil
        while core.wantsInput && pending.readableBytes > 0 {
            let count = min(pending.readableBytes, ConnectionCore.readBufferSize)
            pending.withUnsafeReadableBytes { core.receive(UnsafeRawBufferPointer(rebasing: $0.prefix(count))) }
            pending.moveReaderIndex(forwardBy: count)
        }
        if pending.readableBytes > 0 && !closed { pendingInbound = pending }
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        writable = context.channel.isWritable
        guard writable, core != nil else { return }
        if writing {
            loop.nio.assumeIsolatedUnsafeUnchecked().execute { [self] in core?.transportWritable() }
        } else {
            core?.transportWritable()
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        inactive = true
        if writing {
            endAfterWrite = true
            return
        }
        if let core { core.transportEnded() }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // A reset or a failed write: the connection ends (channelInactive tells the core).
        context.close(promise: nil)
    }

    // MARK: - Outbound

    func read(context: ChannelHandlerContext) {
        if core != nil && interest & IOEvents.input == 0 {
            readHeld = true
        } else {
            context.read()
        }
    }
}
