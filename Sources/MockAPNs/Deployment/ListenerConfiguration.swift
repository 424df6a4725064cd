/// Where one of the mock's APNs listeners listens and what it holds a connection to: the HTTP/2 listener's and the
/// HTTP/1.1 listener's settings alike, so a request meets the same limits on either.
///
/// The defaults are the HTTP/2 listener's: TLS on 127.0.0.1:2197 with the bundled test certificate, on the
/// process's shared event loops. ``plainHTTP1`` is the HTTP/1.1 listener's: no TLS, a free port.
public struct ListenerConfiguration: Sendable, Hashable {
    /// Address to listen on: an IPv4/IPv6 literal or a host name.
    public var host = "127.0.0.1"
    /// Port; 0 picks a free one (read it back from the listener).
    public var port = ListenerConfiguration.apnsPort
    /// The certificate the listener presents; nil serves plain TCP (h2c prior knowledge for HTTP/2, which is all
    /// the HTTP/1.1 listener serves).
    public var tls: TLSIdentity? = TLSIdentity()
    /// The event loops it runs on.
    public var loops = Loops.shared
    /// Most client connections open at once; more are closed as they arrive, so a client opening connections in a
    /// loop cannot grow the mock's memory.
    public var maxConnections = 10_000
    /// Connections with no traffic and no open stream for this long are closed (HTTP/2: GOAWAY `IdleTimeout`);
    /// nil = never. APNs does not document its idle limit (unverified), so the default is a generous hour.
    public var idleTimeout: Duration? = .seconds(3600)
    /// Largest request body kept; the rest is read and dropped, and the pipeline answers 413 `PayloadTooLarge`.
    public var maxBodyBytes = 64 * 1024
    /// Largest header list accepted, counted as HTTP/2 counts it (name + value + 32 per field; on HTTP/1.1 the
    /// request line's method and target too); larger ones are answered 431 and recorded.
    public var maxHeaderListSize = 8000
    /// How long in-flight requests may finish after the listener is told to stop (HTTP/2: after GOAWAY) before
    /// what is left is closed.
    public var shutdownGracePeriod: Duration = .seconds(2)
    /// Serve Apple's own host names (`--apple-hosts`, HTTP/2 only): the certificate names them and is signed by
    /// ``TLSIdentity/certificateAuthorityDirectory``'s CA (never the bundled one, whose key is public), ``port``
    /// serves pushes as Apple's 2197, and these ports the rest. Nil = the mock's own address only.
    public var appleHosts: AppleHostPorts?

    /// The mock's own APNs port, Apple's development and production port too.
    public static let apnsPort = 2197

    /// The HTTP/2 listener's defaults.
    public init() {}

    /// The HTTP/1.1 listener's: no TLS, a free port on 127.0.0.1, the rest as the HTTP/2 listener's.
    public static var plainHTTP1: ListenerConfiguration {
        var configuration = ListenerConfiguration()
        configuration.port = 0
        configuration.tls = nil
        return configuration
    }

    /// `https://host:port` (`http://` without TLS) for a bound `port`, IPv6 literals in brackets.
    public func url(port: Int) -> String {
        let shown = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        return "\(tls == nil ? "http" : "https")://\(shown):\(port)"
    }

    /// Which event loops a listener runs on.
    public enum Loops: Sendable, Hashable {
        /// SwiftNIO's shared loops (`MultiThreadedEventLoopGroup.singleton`, one per core), which the control plane,
        /// the store and the webhooks run on too. The listener never shuts them down.
        case shared
        /// A group of this many loops of the listener's own, shut down when it stops.
        case own(Int)
    }

    /// Where the listener's certificate comes from: a file pair of the user's own, a fresh one issued at start for
    /// the names senders use, or the bundled `server.pem`.
    public struct TLSIdentity: Sendable, Hashable {
        /// Server certificate chain (PEM file); nil = the bundled `server.pem`.
        public var certificatePath: String?
        /// Server private key (PEM file); nil = the bundled `server-key.pem`.
        public var privateKeyPath: String?
        /// Host names (or IP literals) to issue a fresh server certificate for at start, beside localhost,
        /// 127.0.0.1 and ::1 (`--tls-name`): the names senders reach the mock by. Empty (and no
        /// ``certificateAuthorityDirectory``) = serve ``certificatePath``, or the bundled `server.pem`.
        public var names: [String] = []
        /// A folder holding a CA of this mock's own, made there on first use (`--ca-dir`), that signs the server
        /// certificate issued at start instead of the bundled test CA.
        public var certificateAuthorityDirectory: String?

        /// The bundled test certificate.
        public init() {}
    }

    /// The ports the mock listens on when it serves Apple's own host names (`serve --apple-hosts`), each settable
    /// and 0 for a free one: pushes on 443 (beside ``ListenerConfiguration/port``, Apple's 2197), channel management
    /// on 2195 (sandbox) and 2196 (production), as Apple serves them (apns-rules §1.1, §1.2).
    public struct AppleHostPorts: Sendable, Hashable {
        /// Apple's HTTPS port for pushes.
        public var httpsPort = 443
        /// `api-manage-broadcast.sandbox.push.apple.com`'s port.
        public var channelManagementSandboxPort = 2195
        /// `api-manage-broadcast.push.apple.com`'s port.
        public var channelManagementProductionPort = 2196

        /// Apple's ports.
        public init() {}

        /// The listeners beside the mock's own port, in the order the transport numbers them (1, 2, 3), with the
        /// role and the Apple port each stands for.
        public var extraListeners: [(port: Int, role: ListenerRole, applePort: Int)] {
            [(httpsPort, .applePush, 443),
             (channelManagementSandboxPort, .appleChannelManagement(.development), 2195),
             (channelManagementProductionPort, .appleChannelManagement(.production), 2196)]
        }
    }
}
