import Logging
import NIOCore
import NIOPosix
import Support

/// How an `HTTP2Server` listens and what it advertises.
public struct HTTP2ServerConfiguration: Sendable {
    /// Address to bind: an IPv4/IPv6 literal ("127.0.0.1", "::1", "0.0.0.0", "::") or a host name.
    public var host: String = "127.0.0.1"
    /// Port to bind; 0 picks any free port (read it back from `HTTP2Server.localPort`).
    public var port: Int = 0
    /// More ports to listen on at `host`, served by the same loops with the same settings; 0 picks a free one (read
    /// them back from `HTTP2Server.localPorts`). A connection's ``HTTP2ConnectionInfo/listener`` says which port it
    /// came in on: 0 for `port`, then 1, 2… for these in order.
    public var extraPorts: [Int] = []
    /// TLS settings; nil serves h2c with prior knowledge on plain TCP.
    public var tls: TLSConfiguration?
    /// SETTINGS_MAX_CONCURRENT_STREAMS for connections (unless `initialMaxConcurrentStreams` says otherwise).
    public var maxConcurrentStreams: UInt32 = 1000
    /// SETTINGS_MAX_HEADER_LIST_SIZE; larger header blocks are answered 431 without reaching the handler.
    public var maxHeaderListSize: UInt32 = 8000
    /// SETTINGS_INITIAL_WINDOW_SIZE.
    public var initialWindowSize: UInt32 = 65535
    /// SETTINGS_MAX_FRAME_SIZE.
    public var maxFrameSize: UInt32 = 16384
    /// Per-stream request body cap; longer bodies are delivered with `bodyOverflowed = true`.
    public var maxBodyBytes: Int = 64 * 1024
    /// Close connections with no traffic and no open stream for this long (GOAWAY NO_ERROR, debug data
    /// `IdleTimeout`); nil = never. APNs does not document its own idle limit, so the default is a generous hour:
    /// long enough for any client that keeps a connection around, short enough that forgotten ones go away.
    public var idleTimeout: Duration? = .seconds(3600)
    /// A connection that has not sent the HTTP/2 connection preface this long after it was accepted (on TLS,
    /// one that has not finished its handshake counts as no preface) is closed: GOAWAY NO_ERROR with debug
    /// data `IdleTimeout` when a session exists, a plain close during a TLS handshake. Without it, silent
    /// TCP connections hold `maxConnections` slots for ever.
    public var prefaceTimeout: Duration = .seconds(10)
    /// Debug data of the GOAWAY that closes a connection for `idleTimeout` or `prefaceTimeout` (an APNs server
    /// puts JSON `{"reason":"IdleTimeout"}` here).
    public var timeoutGoAwayDebugData: [UInt8] = Array("IdleTimeout".utf8)
    /// Most connections open at once; a connection accepted beyond it is closed at once (logged at warning, once
    /// a second at most), so a client that opens connections in a loop cannot grow the server's memory unboundedly.
    public var maxConnections: Int = 10_000
    /// Number of SwiftNIO event-loop threads of the server's own (default: one per core); not used with `eventLoopGroup`.
    public var loopCount: Int = System.coreCount
    /// Run on these loops, shared with the rest of the process (e.g. `MultiThreadedEventLoopGroup.singleton`, which
    /// Hummingbird, postgres-nio and AsyncHTTPClient use by default), instead of `loopCount` loops of its own. The
    /// server never shuts a shared group down.
    public var eventLoopGroup: MultiThreadedEventLoopGroup?
    /// Per-connection initial SETTINGS_MAX_CONCURRENT_STREAMS, decided when the connection opens
    /// (e.g. APNs: 1 until the first valid token). nil = `maxConcurrentStreams`. Runs on a loop thread.
    public var initialMaxConcurrentStreams: (@Sendable (HTTP2ConnectionInfo) -> UInt32)? = nil
    /// Pending encrypted output per connection above which the server stops reading from that peer
    /// until the output drains (back-pressure).
    public var outputHighWaterMark: Int = 256 * 1024
    /// Shut by the application while its consumer cannot keep up (a record writer's full queue): each connection
    /// then stops reading after the request it just handed over, and reads again once the gate opens. nil = never.
    public var intakeGate: IntakeGate?
    /// Where each connection's id comes from (the mock's, so every listener of one mock numbers its connections from
    /// one sequence); nil = a counter of this process's. Called once per accepted connection, on its loop.
    public var connectionIDs: (@Sendable () -> UInt64)?
    /// Sets up each accepted connection instead of serving it at once: for a port that speaks more than HTTP/2 over
    /// a TLS of its own (ALPN `h2` and `http/1.1`, as Google's front ends answer), or one that two servers share by
    /// the TLS ClientHello's server name. Called on the connection's loop with its channel; it puts its handlers in
    /// the pipeline and hands a connection this server is to serve to ``HTTP2ConnectionIntake/serve(_:)``, or one that
    /// is another server's to that server's ``HTTP2Server/intake(on:)``. Without `tls`, the bytes reaching the
    /// pipeline's end are served as HTTP/2 with prior knowledge (TLS, if any, is the pipeline's); with `tls`, the
    /// server ends TLS on them, so a setup that only looks (at a ClientHello, say) passes them on unchanged. The
    /// server's limits, timeouts and graceful shutdown cover the connections it serves; a connection the setup keeps
    /// for itself is the setup's to close. nil = the server serves every connection itself.
    public var connectionSetup: (@Sendable (any Channel, HTTP2ConnectionIntake) -> EventLoopFuture<Void>)?
    /// Where connection-level events go (handshake failures at debug, open/close at trace).
    /// Nothing is logged per request.
    public var logger: Logger = Logger(label: "mockapns.http2")

    /// The defaults, with the address, TLS and loop count given here; set any other field on the value.
    public init(host: String? = nil, port: Int? = nil, tls: TLSConfiguration? = nil, loopCount: Int? = nil) {
        if let host { self.host = host }
        if let port { self.port = port }
        self.tls = tls
        if let loopCount { self.loopCount = loopCount }
    }
}
