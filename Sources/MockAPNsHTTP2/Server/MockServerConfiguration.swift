import MockAPNs

/// The HTTP/2 listener's settings (`mockapns serve`'s address, port and TLS identity), apart from what the mock is
/// (``MockConfiguration``). Defaults: TLS on 127.0.0.1:2197 with the bundled test certificate.
public struct MockServerConfiguration: Sendable {
    /// Address to listen on.
    public var host = "127.0.0.1"
    /// Port; 0 picks a free one (read it back from `MockAPNsServer.port`).
    public var port = 2197
    /// TLS (with and without ALPN) when true; h2c prior knowledge when false.
    public var tls = true
    /// Server certificate chain (PEM file); nil = the bundled `server.pem`.
    public var certificatePath: String?
    /// Server private key (PEM file); nil = the bundled `server-key.pem`.
    public var privateKeyPath: String?
    /// Host names (or IP literals) to issue a fresh server certificate for at start, beside localhost, 127.0.0.1 and
    /// ::1 (`--tls-name`): the names senders reach the mock by. Empty (and no `certificateAuthorityDirectory`) = serve
    /// `certificatePath`, or the bundled `server.pem`.
    public var tlsNames: [String] = []
    /// A folder holding a CA of this mock's own, made there on first use (`--ca-dir`), that signs the server
    /// certificate issued at start instead of the bundled test CA.
    public var certificateAuthorityDirectory: String?
    /// Serve Apple's own host names (`--apple-hosts`): the certificate names them (`AppleHost.names`) and is signed by
    /// `certificateAuthorityDirectory`'s CA (never the bundled one, whose key is public), `port` serves pushes as
    /// Apple's 2197, and these ports the rest. Nil = the mock's own address only.
    public var appleHosts: AppleHostsConfiguration?
    /// Event loops (threads) of the listener's own; nil = the process's shared SwiftNIO loops
    /// (`MultiThreadedEventLoopGroup.singleton`, one per core), which the control plane, the store and the webhooks
    /// run on too.
    public var loopCount: Int?
    /// Most client connections open at once; more are closed as they arrive.
    public var maxConnections = 10_000
    /// Connections with no traffic and no open stream for this long are closed with GOAWAY `IdleTimeout`;
    /// nil = never. APNs does not document its idle limit (unverified), so the default is a generous hour.
    public var idleTimeout: Duration? = .seconds(3600)
    /// Largest request body buffered; larger bodies are answered 413 without being kept.
    public var maxBodyBytes = 64 * 1024
    /// How long in-flight streams may finish after GOAWAY when the listener stops as a service (its group shuts
    /// down), before what is left is closed.
    public var shutdownGracePeriod: Duration = .seconds(2)

    /// The defaults.
    public init() {}
}
