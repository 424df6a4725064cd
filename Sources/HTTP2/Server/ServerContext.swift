import Synchronization

/// What every connection of one server shares: configuration, handler, TLS context, counters.
final class ServerContext: Sendable {
    let configuration: HTTP2ServerConfiguration
    let handler: any HTTP2RequestHandler
    let tls: TLSServerContext?
    /// Connections accepted and not yet closed (across all loops).
    let openConnections = Atomic<Int>(0)
    /// Wakes a shutdown waiting for the last connection to close.
    let drain = ConnectionDrain()
    /// Set once graceful shutdown began: new connections are refused and idle ones told to go away.
    let shuttingDown = Atomic<Bool>(false)
    /// The most output any one connection ever had queued (bytes): shows back-pressure holds.
    let peakPendingOutput = Atomic<Int>(0)

    init(configuration: HTTP2ServerConfiguration, handler: any HTTP2RequestHandler, tls: TLSServerContext?) {
        self.configuration = configuration
        self.handler = handler
        self.tls = tls
    }
}

/// Source of connection identifiers, unique within the process (shared by servers and clients).
let nextConnectionID = Atomic<UInt64>(1)
