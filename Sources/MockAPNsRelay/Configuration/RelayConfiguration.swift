import APNsClient

/// Where a relay sends the device pushes its mock accepted, and how: what `mockapns serve --relay URL …` and
/// `APNsMockOptions.relay` describe. Plain values (PEM text, not file paths), so a command line, a test or a config
/// file can fill it in; `APNsClientRelay(configuration:)` checks it and says what to fix.
///
/// ```swift
/// var relay = RelayConfiguration(upstream: .development)   // Apple's sandbox
/// relay.credentials = .resign(privateKeyPEM: p8, keyID: "KEY1234567", teamID: "ABCDE12345")
/// ```
public struct RelayConfiguration: Sendable, Hashable {
    /// The upstream APNs: Apple's (`.development`, `.production`) or any other server, such as a second mock
    /// (`.custom(url: "https://127.0.0.1:2197")`, or `http://…` for h2c).
    public var upstream: APNsEndpoint
    /// Who the relay is to the upstream: every push re-signed with a key of its own, or each sender's own token
    /// forwarded (the default).
    public var credentials: RelayCredentials
    /// CA certificates (PEM) trusted for the upstream instead of the system store: a private upstream, such as a
    /// mock with its own CA. Nil: the system store (Apple's servers).
    public var trustRootsPEM: String?
    /// How long a relayed push may take upstream, connecting included, before the sender gets `503
    /// ServiceUnavailable` with the cause recorded. Connecting alone gets at most 10 seconds of it.
    public var timeout: Duration
    /// Long-lived connections to the upstream for re-signed and certificate-authenticated pushes. Forwarded tokens get
    /// a connection each (APNs ties a token to its connection); the most recently used `max(connections, 8)` of
    /// those are kept open.
    public var connections: Int
    /// Pushes upstream at once; one more is answered `429 TooManyRequests` at once rather than queued, so a burst
    /// costs the relay no memory and the sender slows down as it would for Apple.
    public var maxInFlight: Int

    /// A relay to `upstream` as `credentials`, trusting `trustRootsPEM` (nil: the system store), with a 10-second
    /// timeout, 2 connections and at most 1000 pushes in flight.
    public init(upstream: APNsEndpoint, credentials: RelayCredentials = .forward(), trustRootsPEM: String? = nil,
                timeout: Duration = .seconds(10), connections: Int = 2, maxInFlight: Int = 1000) {
        self.upstream = upstream
        self.credentials = credentials
        self.trustRootsPEM = trustRootsPEM
        self.timeout = timeout
        self.connections = connections
        self.maxInFlight = maxInFlight
    }
}
