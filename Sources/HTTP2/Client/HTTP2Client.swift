/// Opens HTTP/2 client connections on event loops of its own (``init(threads:configuration:)``, stopped by
/// ``shutdown()``) or shared ones (``init(loops:configuration:)``).
public final class HTTP2Client: Sendable {
    /// The loops connections run on.
    public let loops: HTTP2ClientLoops
    private let ownsLoops: Bool
    /// Options for new connections.
    public let configuration: HTTP2ClientConfiguration

    /// A client on `threads` new loops (default 1: a client rarely needs more).
    public init(threads: Int = 1, configuration: HTTP2ClientConfiguration = HTTP2ClientConfiguration()) {
        loops = HTTP2ClientLoops(threads: threads)
        ownsLoops = true
        self.configuration = configuration
    }

    /// A client on shared loops (not stopped by ``shutdown()``).
    public init(loops: HTTP2ClientLoops, configuration: HTTP2ClientConfiguration = HTTP2ClientConfiguration()) {
        self.loops = loops
        ownsLoops = false
        self.configuration = configuration
    }

    /// Opens a connection; see ``HTTP2ClientConnection``.
    public func connect(host: String, port: Int, tls: TLSClientConfiguration?) async throws(HTTP2ClientError) -> HTTP2ClientConnection {
        try await HTTP2ClientConnection.connect(host: host, port: port, tls: tls, on: loops.next(), configuration: configuration)
    }

    /// Stops the loops if this client made them. Close connections first.
    public func shutdown() async {
        if ownsLoops { await loops.shutdown() }
    }
}
