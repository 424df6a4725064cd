import NIOCore
import NIOPosix
import Synchronization
import Support

/// An HTTP/2 server (TLS with or without ALPN, or h2c prior knowledge) on SwiftNIO's event loops.
///
/// ```swift
/// let server = try HTTP2Server(configuration: .init(port: 0, tls: tls), handler: MyHandler())
/// try await server.start()
/// print(server.localPort)
/// await server.shutdown(gracePeriod: .seconds(5))
/// ```
public final class HTTP2Server: Sendable {
    private enum State {
        case idle
        /// Binding, outside the lock. A `shutdown` meanwhile marks the server stopped, and `start` then closes what it
        /// bound.
        case starting
        case running(NIOServerRuntime)
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
        BlockingCheck.installLoopThreadCheck(isNIOLoopThread)
    }

    /// Binds every port, then serves. Throws e.g. `.addressInUse` ("port 2197 … is already in use"), and then
    /// leaves nothing listening.
    public func start() async throws(HTTP2Error) {
        try state.withLock { (state) throws(HTTP2Error) in
            guard case .idle = state else { throw .alreadyStarted }
            state = .starting
        }
        // Binding is awaited, so it runs without the lock that `localPorts` and `shutdown` take.
        let runtime: NIOServerRuntime
        do {
            runtime = try await NIOServerRuntime.start(context: context)
        } catch {
            state.withLock { state in
                if case .starting = state { state = .idle }
            }
            throw error
        }
        let overtaken = state.withLock { state in
            guard case .starting = state else { return true }
            state = .running(runtime)
            return false
        }
        if overtaken {
            await runtime.closeNow()
            return
        }
        // debug: a program embedding the server prints its own start-up line (mockapns serve does).
        configuration.logger.debug(
            "HTTP/2 server listening",
            metadata: ["host": "\(configuration.host)", "ports": "\(runtime.ports)", "tls": "\(configuration.tls != nil)",
                       "loops": "\(runtime.loops.count)"])
    }

    /// The bound port (useful with port 0); 0 before `start()`.
    public var localPort: Int { localPorts.first ?? 0 }

    /// Every bound port, `port` first, then `extraPorts` in order; empty before `start()`.
    public var localPorts: [Int] {
        state.withLock { state in
            if case let .running(runtime) = state { return runtime.ports }
            return []
        }
    }

    /// The intake of this running server on `eventLoop`, for a connection another listener accepted there: one port
    /// that serves two servers, chosen by the TLS ClientHello's server name, hands each connection to the server its
    /// name belongs to. What it serves counts as a connection of this server's first port, under its limits, timeouts
    /// and graceful shutdown. nil when the server is not running or `eventLoop` is not one of its loops (a server on
    /// loops of its own cannot take another group's connections).
    public func intake(on eventLoop: any EventLoop) -> HTTP2ConnectionIntake? {
        state.withLock { state in
            guard case let .running(runtime) = state else { return nil }
            return runtime.intake(on: eventLoop, context: context)
        }
    }

    /// Number of currently open connections (all loops).
    public var openConnectionCount: Int { context.openConnections.load(ordering: .relaxed) }

    /// The most encrypted output any single connection has had queued so far (bytes). Back-pressure keeps
    /// it near `configuration.outputHighWaterMark` even when a peer stops reading.
    public var peakPendingOutputBytes: Int { context.peakPendingOutput.load(ordering: .relaxed) }

    /// Graceful shutdown: stop accepting, GOAWAY(NO_ERROR) to every connection, let in-flight streams
    /// finish for up to `gracePeriod`, then close what is left and stop the loops (unless they are shared).
    public func shutdown(gracePeriod: Duration) async {
        let previous = state.withLock { state in
            defer { state = .stopped }
            return state
        }
        guard case let .running(runtime) = previous else { return }
        context.shuttingDown.store(true, ordering: .relaxed)
        await runtime.stopAccepting()
        let loopStates = runtime.loopStates
        for loopState in loopStates {
            loopState.loop.execute {
                for connection in Array(loopState.connections.values) { connection.beginGracefulShutdown() }
            }
        }
        let context = self.context
        let open: @Sendable () -> Int = { context.openConnections.load(ordering: .relaxed) }
        await context.drain.wait(until: ContinuousClock.now + gracePeriod, openConnections: open)
        for loopState in loopStates {
            loopState.loop.execute { loopState.closeConnections() }
        }
        // Connections still being set up on another loop may close a moment later.
        await context.drain.wait(until: ContinuousClock.now + .seconds(2), openConnections: open)
        await runtime.shutdown()
    }
}

/// Whether the calling thread is one of SwiftNIO's event loops (``BlockingCheck``'s test).
@Sendable func isNIOLoopThread() -> Bool {
    MultiThreadedEventLoopGroup.currentEventLoop != nil
}
