import Logging
import MockAPNs
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization
import Support

/// The plain HTTP/1.1 APNs endpoint: SwiftNIO's HTTP/1.1 server pipeline (keep-alive, pipelined requests answered
/// in order) in front of a ``Mock``'s pipeline, with no router and no TLS.
///
/// It exists for senders that cannot trust the mock's private CA — APNSwift's `.custom(url: "http://…", port:)`
/// speaks plain HTTP/1.1 — and it is light (SwiftNIO only), so the test kit can offer it in-process. Every request,
/// `POST /3/device/<token>` or any other path, goes through the same pipeline as the HTTP/2 listener: the same
/// authentication, validation, faults and recording (stream id 0, connection ids the mock mints,
/// ``Mock/newConnectionID()``).
///
/// ```swift
/// let http1 = try APNsHTTP1Listener(mock: mock, configuration: .plainHTTP1)
/// let port = try await http1.start()
/// …
/// await http1.stop()
/// ```
public final class APNsHTTP1Listener: Sendable {
    /// Where and how it listens: ``ListenerConfiguration/plainHTTP1``'s, or a port and address of serve's flags.
    public let configuration: ListenerConfiguration
    private let pipeline: Pipeline
    private let logger: Logger
    /// The mock, which numbers the endpoint's connections.
    private let mock: Mock
    private let state = Locked<State>(.idle)
    /// The open connections, which `stop()` closes: on shared loops nothing else would.
    private let connections = HTTP1Connections()
    /// The bound port, once ``run()`` has bound it.
    let listening = Readiness<Int>()

    private enum State {
        case idle
        /// Binding. A second `start()` meanwhile is refused; a `stop()` marks the endpoint stopped, and `start()` then
        /// gives back what it bound.
        case starting
        /// `ownGroup` is nil on SwiftNIO's shared loops.
        case running(ownGroup: MultiThreadedEventLoopGroup?, channel: any Channel, port: Int)
        case stopped
    }

    /// Makes the endpoint for `mock`; nothing listens until ``start()``. Throws for settings it cannot serve: TLS,
    /// or Apple's host names, which are the HTTP/2 listener's.
    public init(mock: Mock, configuration: ListenerConfiguration = .plainHTTP1,
                logger: Logger = Logger(label: "mockapns.http1")) throws(APNsHTTP1ListenerError) {
        guard configuration.tls == nil, configuration.appleHosts == nil else { throw .unsupported(configuration) }
        self.mock = mock
        pipeline = mock.pipeline
        self.configuration = configuration
        self.logger = logger
        BlockingCheck.installLoopThreadCheck { MultiThreadedEventLoopGroup.currentEventLoop != nil }
    }

    /// The bound port while running, else nil.
    public var port: Int? {
        state.withLock { state in
            if case .running(_, _, let port) = state { return port }
            return nil
        }
    }

    /// `http://host:port` while running, else nil (IPv6 hosts in brackets).
    public var url: String? { port.map(configuration.url(port:)) }

    /// Binds and serves; returns the bound port.
    @discardableResult
    public func start() async throws(APNsHTTP1ListenerError) -> Int {
        let startable = state.withLock { state in
            guard case .idle = state else { return false }
            state = .starting
            return true
        }
        guard startable else { throw .notStartable }
        let ownGroup: MultiThreadedEventLoopGroup? = switch configuration.loops {
        case .shared: nil
        case .own(let count): MultiThreadedEventLoopGroup(numberOfThreads: max(1, count))
        }
        let group: any EventLoopGroup = ownGroup ?? MultiThreadedEventLoopGroup.singleton
        let connections = self.connections
        let handlerConfiguration = APNsHTTP1Handler.Limits(
            maxBodyBytes: configuration.maxBodyBytes, maxHeaderListSize: configuration.maxHeaderListSize)
        let pipeline = self.pipeline
        let maxConnections = configuration.maxConnections
        let idle = configuration.idleTimeout.map(Self.timeAmount)
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 256)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.tcpOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { [self] channel in
                let id = mock.newConnectionID()
                guard connections.add(channel, limit: maxConnections) else {
                    return channel.eventLoop.makeFailedFuture(ChannelError.ioOnClosedChannel)
                }
                do {
                    if let idle {
                        try channel.pipeline.syncOperations.addHandler(IdleStateHandler(allTimeout: idle))
                    }
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline(
                        withPipeliningAssistance: true, withErrorHandling: true)
                    try channel.pipeline.syncOperations.addHandler(
                        APNsHTTP1Handler(pipeline: pipeline, connectionID: id, limits: handlerConfiguration))
                    return channel.eventLoop.makeSucceededVoidFuture()
                } catch {
                    return channel.eventLoop.makeFailedFuture(error)
                }
            }
        let channel: any Channel
        do {
            channel = try await bootstrap.bind(host: configuration.host, port: configuration.port).get()
        } catch {
            try? await ownGroup?.shutdownGracefully()
            state.withLock { state in
                if case .starting = state { state = .idle }
            }
            throw .couldNotListen(host: configuration.host, port: configuration.port, reason: "\(error)")
        }
        let port = channel.localAddress?.port ?? configuration.port
        let stale = state.withLock { state -> Bool in
            if case .starting = state {
                state = .running(ownGroup: ownGroup, channel: channel, port: port)
                return false
            }
            return true
        }
        if stale {
            // Stopped while binding: give the socket, what it accepted meanwhile and the threads back.
            try? await channel.close()
            await connections.closeAll()
            try? await ownGroup?.shutdownGracefully()
            throw .notStartable
        }
        logger.info("HTTP/1.1 APNs endpoint listening", metadata: ["url": "\(url ?? "")"])
        return port
    }

    /// `duration` as NIO's, at least a nanosecond and at most NIO's longest.
    private static func timeAmount(_ duration: Duration) -> TimeAmount {
        .nanoseconds(max(1, Int64(clamping: duration.nanoseconds)))
    }

    /// Stops listening, closes every connection (a stalled request included) and frees the threads. Safe to call
    /// twice.
    public func stop() async {
        let running = state.withLock { state -> (MultiThreadedEventLoopGroup?, any Channel)? in
            defer { state = .stopped }
            if case .running(let ownGroup, let channel, _) = state { return (ownGroup, channel) }
            return nil
        }
        guard let (ownGroup, channel) = running else { return }
        try? await channel.close()
        await connections.closeAll()
        try? await ownGroup?.shutdownGracefully()
    }
}
