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
/// let http1 = APNsHTTP1Server(mock: mock, configuration: APNsHTTP1Configuration(port: 0))
/// let port = try await http1.start()
/// …
/// await http1.stop()
/// ```
public final class APNsHTTP1Server: Sendable {
    /// Where and how it listens.
    public let configuration: APNsHTTP1Configuration
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

    /// Makes the endpoint for `mock`; nothing listens until ``start()``.
    public init(mock: Mock, configuration: APNsHTTP1Configuration = APNsHTTP1Configuration(),
                logger: Logger = Logger(label: "mockapns.http1")) {
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
    public var url: String? {
        port.map { "http://\(configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host):\($0)" }
    }

    /// Binds and serves; returns the bound port.
    @discardableResult
    public func start() async throws(APNsHTTP1ServerError) -> Int {
        let startable = state.withLock { state in
            guard case .idle = state else { return false }
            state = .starting
            return true
        }
        guard startable else { throw .notStartable }
        let ownGroup = configuration.eventLoopThreads.map { MultiThreadedEventLoopGroup(numberOfThreads: max(1, $0)) }
        let group: any EventLoopGroup = ownGroup ?? MultiThreadedEventLoopGroup.singleton
        let connections = self.connections
        let handlerConfiguration = APNsHTTP1Handler.Limits(
            maxBodyBytes: configuration.maxBodyBytes, maxHeaderListSize: configuration.maxHeaderListSize)
        let pipeline = self.pipeline
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 256)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.tcpOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { [self] channel in
                let id = mock.newConnectionID()
                guard connections.add(channel) else {
                    return channel.eventLoop.makeFailedFuture(ChannelError.ioOnClosedChannel)
                }
                do {
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
