import Logging
import MockAPNs

/// The optional plain HTTP/1.1 APNs endpoint (`mockapns serve --http1-port`), for clients that cannot
/// speak TLS + HTTP/2 to a private CA (APNSwift's own tests use plain HTTP/1.1).
///
/// Every request — `POST /3/device/<token>` and any other path — goes through the same ``Pipeline``
/// as the HTTP/2 listener, so it gets the same answers and lands in the same recording (stream id 0).
///
/// ```swift
/// let http1 = APNsHTTP1Endpoint(server: mock, host: "127.0.0.1", port: 0)
/// let port = try await http1.start()
/// …
/// await http1.stop()
/// ```
public final class APNsHTTP1Endpoint: Sendable {
    /// The bind address.
    public let host: String
    /// The requested port (0 = any free one).
    public let requestedPort: Int
    private let server: MockAPNsServer
    private let logger: Logger
    private let runner = HTTPServerRunner()
    private let connections: HTTP1ConnectionIDs

    /// HTTP/1.1 connection ids start here, far from the HTTP/2 listener's, so the two never collide in records.
    public static let firstConnectionID: UInt64 = 1 << 40

    /// Makes the endpoint; nothing listens until ``start()``.
    public init(server: MockAPNsServer, host: String = "127.0.0.1", port: Int, logger: Logger = Logger(label: "mockapns.http1")) {
        self.server = server
        self.host = host
        self.requestedPort = port
        self.logger = logger
        let pipeline = server.pipeline
        self.connections = HTTP1ConnectionIDs(first: Self.firstConnectionID) { pipeline.connectionClosed(id: $0) }
    }

    /// The bound port while running, else nil.
    public var port: Int? { runner.port }

    /// Binds and serves; returns the bound port. Throws ``ControlServerError/couldNotListen(host:port:reason:)``.
    @discardableResult
    public func start() async throws(ControlServerError) -> Int {
        let responder = APNsHTTP1Responder(pipeline: server.pipeline, connections: connections)
        let port = try await runner.start(responder: responder, host: host, port: requestedPort, logger: logger)
        logger.info("HTTP/1.1 APNs endpoint listening", metadata: ["url": "http://\(host):\(port)"])
        return port
    }

    /// Stops listening and waits for the socket to close. Safe to call twice.
    public func stop() async {
        await runner.stop()
    }
}
