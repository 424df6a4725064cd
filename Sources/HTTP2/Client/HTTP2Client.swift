/// A client with its own event loops, for callers that do not share a group with a server.
/// Create connections with `connect`, and call `shutdown()` when done.
public final class HTTP2Client: Sendable {
    /// The loops connections run on.
    public let group: EventLoopGroup
    private let ownsGroup: Bool
    /// Options for new connections.
    public let configuration: HTTP2ClientConfiguration

    /// A client on a new group of `threads` loops (default 1: a client rarely needs more).
    public init(threads: Int = 1, configuration: HTTP2ClientConfiguration = HTTP2ClientConfiguration()) throws(HTTP2Error) {
        group = try EventLoopGroup(threads: threads)
        ownsGroup = true
        self.configuration = configuration
    }

    /// A client on an existing group (not shut down by `shutdown()`).
    public init(group: EventLoopGroup, configuration: HTTP2ClientConfiguration = HTTP2ClientConfiguration()) {
        self.group = group
        ownsGroup = false
        self.configuration = configuration
    }

    /// Opens a connection; see `HTTP2ClientConnection.connect`.
    public func connect(host: String, port: Int, tls: TLSClientConfiguration?) async throws(HTTP2ClientError) -> HTTP2ClientConnection {
        try await HTTP2ClientConnection.connect(host: host, port: port, tls: tls, on: group, configuration: configuration)
    }

    /// Stops the loops if this client created them. Close connections first.
    public func shutdown() async {
        if ownsGroup { await group.shutdown() }
    }
}
