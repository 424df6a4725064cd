import Foundation

/// Why the client's pool could not open a connection to APNs: the address, the last cause, and how long and how
/// often it tried. Carried by `APNsClientError.unreachable` and by `APNsClient.outage`, so a caller can tell an
/// endpoint that is down (and for how long) from one push that failed.
public struct APNsConnectFailure: Sendable, Hashable, CustomStringConvertible {
    /// `host:port` of the endpoint.
    public var address: String
    /// The last attempt's cause, e.g. `connection refused` or `TLS handshake failed: …`.
    public var cause: String
    /// Connection attempts that failed since the endpoint became unreachable (since the last successful connect).
    public var attempts: Int
    /// Time since the first of those attempts started.
    public var elapsed: Duration

    /// Creates a failure description.
    public init(address: String, cause: String, attempts: Int, elapsed: Duration) {
        self.address = address
        self.cause = cause
        self.attempts = attempts
        self.elapsed = elapsed
    }

    /// Elapsed time in seconds.
    public var seconds: Double {
        Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    /// `could not connect to 127.0.0.1:2197: connection refused, 6 attempts over 4.2 s`.
    public var description: String {
        let over = String(format: "%.1f s", seconds)
        if attempts == 0 { return "could not connect to \(address): \(cause) after \(over)" }
        return "could not connect to \(address): \(cause), \(attempts) attempt\(attempts == 1 ? "" : "s") over \(over)"
    }
}
