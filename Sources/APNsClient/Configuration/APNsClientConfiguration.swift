/// Everything an `APNsClient` needs: where to connect, how to authenticate, how many connections to keep,
/// and how long and how often to try a push.
///
/// ```swift
/// let configuration = APNsClientConfiguration(
///     environment: .development,
///     authentication: .token(privateKeyPEM: p8, keyID: "ABC123DEFG", teamID: "DEF123GHIJ"))
/// ```
public struct APNsClientConfiguration: Sendable {
    /// The APNs endpoint (production, development, or a custom URL such as a local mock).
    public var environment: APNsEndpoint
    /// Provider token (JWT from a `.p8` key) or TLS client certificate.
    public var authentication: APNsAuthentication
    /// Extra CA certificates (PEM) to trust instead of the system store; nil = the system trust store.
    public var trustRootsPEM: String?
    /// How many HTTP/2 connections the pool keeps open (at least 1). Requests are spread across them.
    public var connections: Int
    /// How long one attempt of a push may take in all: waiting for a connection (past it: `.unreachable`), then
    /// for APNs's answer (past it: `.timeout`).
    public var requestTimeout: Duration
    /// How failed attempts that may succeed later are retried.
    public var retryPolicy: APNsRetryPolicy
    /// How long opening a connection (TCP, TLS, first SETTINGS) may take.
    public var connectTimeout: Duration
    /// Event-loop threads for the connections (nil = one per connection, at most the number of cores).
    public var eventLoopThreads: Int?

    /// Creates a configuration; only the endpoint and the credential are required.
    public init(
        environment: APNsEndpoint,
        authentication: APNsAuthentication,
        trustRootsPEM: String? = nil,
        connections: Int = 1,
        requestTimeout: Duration = .seconds(30),
        retryPolicy: APNsRetryPolicy = APNsRetryPolicy(),
        connectTimeout: Duration = .seconds(10),
        eventLoopThreads: Int? = nil
    ) {
        self.environment = environment
        self.authentication = authentication
        self.trustRootsPEM = trustRootsPEM
        self.connections = connections
        self.requestTimeout = requestTimeout
        self.retryPolicy = retryPolicy
        self.connectTimeout = connectTimeout
        self.eventLoopThreads = eventLoopThreads
    }
}
