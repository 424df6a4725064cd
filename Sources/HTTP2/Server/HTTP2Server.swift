#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization
import Support

/// An HTTP/2 server (TLS with or without ALPN, or h2c prior knowledge) on its own event loops (epoll, or `poll(2)`),
/// or on SwiftNIO's (``HTTP2ServerConfiguration/runtime``, `MOCKAPNS_IO_DRIVER=nio`: a prototype to measure against).
///
/// ```swift
/// let server = try HTTP2Server(configuration: .init(port: 0, tls: tls), handler: MyHandler())
/// try server.start()
/// print(server.localPort)
/// await server.shutdown(gracePeriod: .seconds(5))
/// ```
public final class HTTP2Server: Sendable {
    private enum State {
        case idle
        case running(group: EventLoopGroup, acceptors: [Acceptor], loopStates: [ServerLoopState], ports: [Int])
        case runningOnNIO(NIOServerRuntime)
        case stopped
    }

    /// The configuration the server was created with.
    public let configuration: HTTP2ServerConfiguration
    private let context: ServerContext
    private let state = Locked<State>(.idle)

    /// Validates the configuration and loads TLS material (throws `HTTP2Error.tls` with OpenSSL's reason).
    public init(configuration: HTTP2ServerConfiguration, handler: any HTTP2RequestHandler) throws(HTTP2Error) {
        self.configuration = configuration
        let tls = try configuration.tls.map { (tls) throws(HTTP2Error) in try TLSServerContext(configuration: tls) }
        context = ServerContext(configuration: configuration, handler: handler, tls: tls)
    }

    /// Binds, listens and starts the loops. Throws e.g. `.addressInUse` ("port 2197 … is already in use").
    public func start() throws(HTTP2Error) {
        try state.withLock { (state) throws(HTTP2Error) in
            guard case .idle = state else { throw .alreadyStarted }
            if configuration.runtime == .nio {
                let runtime = try NIOServerRuntime(context: context)
                state = .runningOnNIO(runtime)
                configuration.logger.debug(
                    "HTTP/2 server listening",
                    metadata: ["host": "\(configuration.host)", "ports": "\(runtime.ports)", "tls": "\(configuration.tls != nil)",
                               "loops": "\(runtime.loops.count)", "runtime": "nio"])
                return
            }
            // Every port is bound before any loop starts, so a port in use leaves nothing running.
            var listeners: [Int32] = []
            let group: EventLoopGroup
            do throws(HTTP2Error) {
                for port in [configuration.port] + configuration.extraPorts {
                    listeners.append(try Socket.listen(host: configuration.host, port: port))
                }
                group = try EventLoopGroup(threads: configuration.loopCount, driver: configuration.ioDriver)
            } catch {
                for listener in listeners { Socket.close(listener) }
                throw error
            }
            let ports = listeners.map { Socket.localPort(fd: $0) }
            let loopStates = group.loops.map { ServerLoopState(loop: $0) }
            let sweepInterval = ServerLoopState.sweepInterval(for: configuration)
            for loopState in loopStates {
                loopState.loop.execute { loopState.startTimeoutSweep(interval: sweepInterval) }
            }
            let acceptors = listeners.enumerated().map { index, listener in
                Acceptor(fd: listener, loop: group.loops[0], group: group, context: context, loopStates: loopStates, listener: index)
            }
            group.loops[0].execute {
                for acceptor in acceptors {
                    do {
                        try acceptor.loop.register(fd: acceptor.fd, events: IOEvents.input, handler: acceptor)
                    } catch {
                        acceptor.close()
                    }
                }
            }
            state = .running(group: group, acceptors: acceptors, loopStates: loopStates, ports: ports)
            // debug: a program embedding the server prints its own start-up line (mockapns serve does).
            configuration.logger.debug(
                "HTTP/2 server listening",
                metadata: ["host": "\(configuration.host)", "ports": "\(ports)", "tls": "\(configuration.tls != nil)",
                           "loops": "\(group.loops.count)"])
        }
    }

    /// The bound port (useful with port 0); 0 before `start()`.
    public var localPort: Int { localPorts.first ?? 0 }

    /// Every bound port, `port` first, then `extraPorts` in order; empty before `start()`.
    public var localPorts: [Int] {
        state.withLock { state in
            switch state {
            case let .running(_, _, _, ports): return ports
            case let .runningOnNIO(runtime): return runtime.ports
            case .idle, .stopped: return []
            }
        }
    }

    /// The server's event loops while it runs (e.g. to schedule timers or run a client on them); nil otherwise, and on
    /// SwiftNIO's loops.
    public var eventLoopGroup: EventLoopGroup? {
        state.withLock { state in
            if case let .running(group, _, _, _) = state { return group }
            return nil
        }
    }

    /// Number of currently open connections (all loops).
    public var openConnectionCount: Int { context.openConnections.load(ordering: .relaxed) }

    /// The most encrypted output any single connection has had queued so far (bytes). Back-pressure keeps
    /// it near `configuration.outputHighWaterMark` even when a peer stops reading.
    public var peakPendingOutputBytes: Int { context.peakPendingOutput.load(ordering: .relaxed) }

    /// Graceful shutdown: stop accepting, GOAWAY(NO_ERROR) to every connection, let in-flight streams
    /// finish for up to `gracePeriod`, then close what is left and stop the loops.
    public func shutdown(gracePeriod: Duration) async {
        let previous = state.withLock { state in
            defer { state = .stopped }
            return state
        }
        let loopStates: [ServerLoopState]
        switch previous {
        case let .running(_, acceptors, states, _):
            context.shuttingDown.store(true, ordering: .relaxed)
            for acceptor in acceptors { acceptor.loop.execute { acceptor.close() } }
            loopStates = states
        case let .runningOnNIO(runtime):
            context.shuttingDown.store(true, ordering: .relaxed)
            await runtime.stopAccepting()
            loopStates = runtime.loopStates
        case .idle, .stopped:
            return
        }
        for loopState in loopStates {
            loopState.loop.execute {
                for connection in Array(loopState.connections.values) { connection.beginGracefulShutdown() }
            }
        }
        let deadline = ContinuousClock.now + gracePeriod
        while context.openConnections.load(ordering: .relaxed) > 0 && ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(5))
        }
        for loopState in loopStates {
            loopState.loop.execute {
                for connection in Array(loopState.connections.values) { connection.close() }
            }
        }
        // Connections still being set up on another loop may close a moment later.
        let forceDeadline = ContinuousClock.now + .seconds(2)
        while context.openConnections.load(ordering: .relaxed) > 0 && ContinuousClock.now < forceDeadline {
            try? await Task.sleep(for: .milliseconds(2))
        }
        switch previous {
        case let .running(group, _, _, _): await group.shutdown()
        case let .runningOnNIO(runtime): await runtime.shutdown()
        case .idle, .stopped: break
        }
        // The loop threads are gone (joined), so their state can be touched here: close anything that
        // was still being set up when they stopped.
        for loopState in loopStates {
            for connection in Array(loopState.connections.values) { connection.close() }
        }
    }
}
