import Support

/// One HTTP/2 server connection driven in memory, as swift-nio's `EmbeddedChannel` drives a pipeline: write the
/// bytes a client sends, read the bytes the server answers, move the clock. The connection is the server's own
/// (the same ``ConnectionCore``, nghttp2 session, TLS through memory BIOs when `configuration.tls` is set, timeouts,
/// back-pressure); only the driver differs — no socket, no thread, nothing happens between calls.
///
/// ```swift
/// let connection = try EmbeddedHTTP2Connection(handler: MyHandler())
/// connection.writeInbound(clientPrefaceAndFrames)
/// let answer = connection.readOutbound()        // SETTINGS, the responses…
/// connection.advanceTime(by: .seconds(11))      // past the preface timeout
/// ```
///
/// Drive it from one task or thread at a time: each call makes the calling thread the connection's loop thread (so an
/// async test may resume on another thread between calls). A handler that answers from another thread has its answer
/// queued; ``run()`` (called by every method here) processes it.
public final class EmbeddedHTTP2Connection {
    private let loop: EmbeddedLoop
    private let driver = EmbeddedDriver()
    private let loopState: ServerLoopState
    private let connection: ServerConnection
    private var stopped = false

    /// Opens the connection as an accepted one: with `configuration.tls`, the TLS handshake is the first thing the
    /// peer's bytes go to; else the h2c session starts at once. Throws what ``HTTP2Server`` throws for bad TLS material.
    public init(
        configuration: HTTP2ServerConfiguration = HTTP2ServerConfiguration(), handler: any HTTP2RequestHandler,
        peerAddress: String = "embedded:0"
    ) throws(HTTP2Error) {
        let tls = try configuration.tls.map { (tls) throws(HTTP2Error) in try TLSServerContext(configuration: tls) }
        let context = ServerContext(configuration: configuration, handler: handler, tls: tls)
        loop = EmbeddedLoop(startingAt: 1_000_000_000)
        loopState = ServerLoopState(loop: loop)
        loopState.startTimeoutSweep(interval: ServerLoopState.sweepInterval(for: configuration))
        context.openConnections.wrappingAdd(1, ordering: .relaxed)
        connection = ServerConnection(driver: driver, peer: peerAddress, loop: loop, context: context, loopState: loopState)
        connection.start()
        run()
    }

    deinit {
        close()
    }

    /// Bytes from the client (any split; they are delivered as the connection takes input), then ``run()``.
    public func writeInbound(_ bytes: some Collection<UInt8>) {
        driver.enqueueInbound(bytes)
        run()
    }

    /// The client half-closed its side (end of input after what was written).
    public func endInbound() {
        driver.endInbound()
        run()
    }

    /// Everything the server has written since the last call.
    public func readOutbound() -> [UInt8] {
        run()
        defer { driver.outbound.removeAll(keepingCapacity: true) }
        return driver.outbound
    }

    /// How many more bytes the client reads before it stops (nil: it reads everything). Lowering it plays a client
    /// that does not read, so the server's back-pressure can be watched; raising it lets the server go on.
    public var outboundRoom: Int? {
        get { driver.outboundRoom }
        set {
            driver.outboundRoom = newValue
            run()
        }
    }

    /// Bytes written with ``writeInbound(_:)`` the server has not taken yet (it stops reading while its output is
    /// held up).
    public var pendingInboundBytes: Int { driver.pendingInboundBytes }

    /// Output the server holds because the client is not reading (``outboundRoom``).
    public var pendingOutboundBytes: Int { connection.pendingOutputBytes }

    /// Whether the server has closed the connection.
    public var isClosed: Bool { driver.isClosed }

    /// Moves the connection's clock forward and runs what became due (timeouts, delayed answers).
    public func advanceTime(by duration: Duration) {
        loop.adoptCallingThread()
        loop.advanceClock(by: duration.nanoseconds)
        run()
    }

    /// Runs queued work — answers handed over from other threads, due timers, output — and delivers pending input,
    /// until nothing changes.
    public func run() {
        guard !stopped else { return }
        loop.adoptCallingThread()
        for _ in 0..<10_000 {
            loop.run()
            if !driver.pump() { return }
        }
    }

    /// Drops the connection (as if the socket went away) and ends its loop. Idempotent.
    public func close() {
        guard !stopped else { return }
        loop.adoptCallingThread()
        connection.close()
        loop.stop()
        stopped = true
    }
}
