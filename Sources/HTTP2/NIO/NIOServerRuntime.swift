#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import NIOCore
import NIOPosix

/// A running ``HTTP2Server``: a `MultiThreadedEventLoopGroup` of `loopCount` loops, one `ServerBootstrap` listener per
/// port (NIO's `AcceptBackoffHandler`, then an ``AcceptGate``), and on each accepted channel a ``NIOChannelDriver``
/// running a ``ServerConnection``.
final class NIOServerRuntime: Sendable {
    let group: MultiThreadedEventLoopGroup
    /// Whether `group` is the server's own (then stopping the server stops it).
    private let ownsGroup: Bool
    /// One adapter and one set of connections per NIO loop, in the group's order.
    let loops: [NIOConnectionLoop]
    let loopStates: [ServerLoopState]
    let channels: [any Channel]
    let ports: [Int]
    /// The slot in `loops` of each NIO loop, by identity.
    private let slots: [ObjectIdentifier: Int]

    private init(group: MultiThreadedEventLoopGroup, ownsGroup: Bool, loops: [NIOConnectionLoop],
                 loopStates: [ServerLoopState], channels: [any Channel], slots: [ObjectIdentifier: Int]) {
        self.group = group
        self.ownsGroup = ownsGroup
        self.loops = loops
        self.loopStates = loopStates
        self.channels = channels
        self.slots = slots
        ports = channels.map { $0.localAddress?.port ?? 0 }
    }

    /// The intake on `eventLoop` for a connection accepted by another listener, as one of the first port's; nil when
    /// `eventLoop` is not one of this runtime's.
    func intake(on eventLoop: any EventLoop, context: ServerContext) -> HTTP2ConnectionIntake? {
        guard let slot = slots[ObjectIdentifier(eventLoop)] else { return nil }
        return HTTP2ConnectionIntake(loop: loops[slot], role: .server(context, loopStates[slot], listener: 0))
    }

    /// Binds every port of `context`'s configuration (awaiting each bind, never blocking the caller's thread) and
    /// starts the loops' timeout sweeps; on a failure, releases what it made and throws why.
    static func start(context: ServerContext) async throws(HTTP2Error) -> NIOServerRuntime {
        let configuration = context.configuration
        let ownsGroup = configuration.eventLoopGroup == nil
        let group = configuration.eventLoopGroup ?? MultiThreadedEventLoopGroup(numberOfThreads: max(1, configuration.loopCount))
        var loops: [NIOConnectionLoop] = []
        var slotOf: [ObjectIdentifier: Int] = [:]
        for nioLoop in group.makeIterator() {
            slotOf[ObjectIdentifier(nioLoop)] = loops.count
            loops.append(NIOConnectionLoop(nio: nioLoop))
        }
        let slots = slotOf
        let loopStates = loops.map { ServerLoopState(loop: $0) }
        let sweepInterval = ServerLoopState.sweepInterval(for: configuration)
        for loopState in loopStates {
            loopState.loop.execute { loopState.startTimeoutSweep(interval: sweepInterval) }
        }
        let adapters = loops
        var channels: [any Channel] = []
        do throws(HTTP2Error) {
            for (listener, port) in ([configuration.port] + configuration.extraPorts).enumerated() {
                let bootstrap = ServerBootstrap(group: group)
                    .serverChannelOption(.backlog, value: 1024)
                    .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                    .serverChannelOption(.maxMessagesPerRead, value: 16)
                    .serverChannelInitializer { channel in
                        channel.eventLoop.makeCompletedFuture {
                            // Out of descriptors or memory: stop accepting for a moment instead of spinning on it.
                            try channel.pipeline.syncOperations.addHandler(AcceptBackoffHandler(backoffProvider: { _ in .milliseconds(100) }))
                            try channel.pipeline.syncOperations.addHandler(AcceptGate(context: context))
                        }
                    }
                    .childChannelOption(.tcpOption(.tcp_nodelay), value: 1)
                    .childChannelInitializer { channel in
                        let slot = slots[ObjectIdentifier(channel.eventLoop)]!
                        let intake = HTTP2ConnectionIntake(loop: adapters[slot], role: .server(context, loopStates[slot], listener: listener))
                        if let setup = configuration.connectionSetup { return setup(channel, intake) }
                        return channel.eventLoop.makeCompletedFuture { try intake.serve(channel) }
                    }
                do {
                    channels.append(try await bootstrap.bind(host: configuration.host, port: port).get())
                } catch let error as IOError where error.errnoCode == EADDRINUSE {
                    throw HTTP2Error.addressInUse(host: configuration.host, port: port)
                } catch let error as IOError where error.errnoCode == EACCES {
                    throw HTTP2Error.bindFailed(host: configuration.host, port: port, reason: "permission denied")
                } catch let error as IOError where error.errnoCode == EADDRNOTAVAIL {
                    throw HTTP2Error.bindFailed(host: configuration.host, port: port, reason: "no interface has that address")
                } catch let error as SocketAddressError {
                    throw HTTP2Error.invalidAddress(host: configuration.host, port: port, reason: "\(error)")
                } catch {
                    throw HTTP2Error.bindFailed(host: configuration.host, port: port, reason: "\(error)")
                }
            }
        } catch {
            await NIOServerRuntime(group: group, ownsGroup: ownsGroup, loops: loops, loopStates: loopStates,
                                   channels: channels, slots: slots).closeNow()
            throw error
        }
        return NIOServerRuntime(group: group, ownsGroup: ownsGroup, loops: loops, loopStates: loopStates, channels: channels,
                                slots: slots)
    }

    /// Closes everything at once: for a start that failed half-way or that ``HTTP2Server/shutdown(gracePeriod:)``
    /// overtook.
    func closeNow() async {
        await stopAccepting()
        await shutdown()
    }

    /// Stops accepting (the listeners close).
    func stopAccepting() async {
        for channel in channels { try? await channel.close() }
    }

    /// Closes what is still open. The server's own loops stop (NIO closes what is open on them: each connection hears
    /// `channelInactive`), and anything still being set up when they stopped is closed once their threads are gone;
    /// on shared loops, each loop closes its connections and ends its timeout sweep.
    func shutdown() async {
        if ownsGroup {
            for loop in loops { loop.markStopped() }
            try? await group.shutdownGracefully()
            for loopState in loopStates { loopState.closeConnections() }
        } else {
            for (loop, loopState) in zip(loops, loopStates) { try? await loop.nio.submit { loopState.end() }.get() }
        }
    }
}
