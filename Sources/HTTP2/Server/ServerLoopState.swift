import Support

/// The live server connections of one loop, for shutdown and timeouts. One per loop per server.
// @unchecked Sendable: `connections` is only read or written on `loop`'s thread.
final class ServerLoopState: @unchecked Sendable {
    let loop: any ConnectionLoop
    var connections: [UInt64: ServerConnection] = [:]
    /// Set when the server stops on loops it shares: the sweep ends.
    private var sweeping = true

    init(loop: any ConnectionLoop) {
        self.loop = loop
    }

    /// Starts the periodic timeout sweep on the loop thread: every `interval` nanoseconds, each connection
    /// checks its preface and idle deadlines. One timer per loop instead of one per connection, so a closed
    /// connection is released at once and a request costs nothing beyond stamping `lastActivity`.
    /// The sweep ends with the loop (its timers are dropped when it stops), or with ``stopTimeoutSweep()``.
    func startTimeoutSweep(interval: UInt64) {
        loop.scheduleLocal(in: interval) { [self] in
            guard sweeping else { return }
            let now = loop.currentTime()
            for connection in Array(connections.values) { connection.checkTimeouts(now: now) }
            startTimeoutSweep(interval: interval)
        }
    }

    /// Ends the sweep at its next turn. Loop thread only.
    func stopTimeoutSweep() {
        sweeping = false
    }

    /// Drops every connection now. On the loop thread, or once the loop's thread is gone.
    func closeConnections() {
        for connection in Array(connections.values) { connection.close() }
    }

    /// What a server leaves on loops it shares when it stops: the sweep ends and every connection closes. Loop thread
    /// only.
    func end() {
        stopTimeoutSweep()
        closeConnections()
    }

    /// How often to sweep: a quarter of the shortest timeout (so a connection is closed at most 25 % late),
    /// between 5 ms and 1 s.
    static func sweepInterval(for configuration: HTTP2ServerConfiguration) -> UInt64 {
        var shortest = configuration.prefaceTimeout.nanoseconds
        if let idle = configuration.idleTimeout?.nanoseconds { shortest = min(shortest, idle) }
        return min(max(shortest / 4, 5_000_000), 1_000_000_000)
    }
}
