import APNsModel
import Logging

/// Everything `mockapns serve` (or `MockAPNs.start()`) can set. Defaults give a working mock:
/// TLS on 127.0.0.1:2197 with the bundled test certificate, the bundled test keys trusted, development mode.
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
    /// CA that client certificates must chain to; nil = the bundled `ca.pem`.
    public var clientCAPath: String?
    /// Host names (or IP literals) to issue a fresh server certificate for at start, beside localhost, 127.0.0.1 and
    /// ::1 (`--tls-name`): the names senders reach the mock by. Empty (and no `certificateAuthorityDirectory`) = serve
    /// `certificatePath`, or the bundled `server.pem`.
    public var tlsNames: [String] = []
    /// A folder holding a CA of this mock's own, made there on first use (`--ca-dir`), that signs the server
    /// certificate issued at start instead of the bundled test CA.
    public var certificateAuthorityDirectory: String?
    /// Serve Apple's own host names (`--apple-hosts`): the certificate names them (``AppleHost/names``) and is signed by
    /// `certificateAuthorityDirectory`'s CA (never the bundled one, whose key is public), `port` serves pushes as
    /// Apple's 2197, and these ports the rest. Nil = the mock's own address only.
    public var appleHosts: AppleHostsConfiguration?
    /// Extra trusted keys, each `TEAMID:KEYID:PATH[:development|production|both]`.
    public var keyFiles: [String] = []
    /// Trust the bundled test keys (`certs/keys.json`).
    public var trustBundledKeys = true
    /// Check JWT shape, claims and time but not signatures.
    public var trustAnySignature = false
    /// Pipeline behaviour (environment, stream limit, reason spelling).
    public var pipeline = PipelineConfiguration()
    /// A `--devices` JSON file to load.
    public var devicesPath: String?
    /// A `--faults` JSON file to load.
    public var faultsPath: String?
    /// A JSON Lines file every record is appended to.
    public var recordPath: String?
    /// Answer each request only once its record's line is written to `recordPath` (`--record-sync`): nothing an
    /// answer claims can be lost to a crash, at a cost in throughput.
    public var recordSync = false
    /// A store every record is also written to, in batches off the event loops (`--store postgres://…`); nil keeps
    /// only the embedded memory ring and `recordPath`. `recordSync` waits for its commit too.
    public var recordStore: (any RecordStore)?
    /// Where accepted device pushes are sent on, their answer going back to the sender (`--relay URL`); nil = the
    /// mock answers everything itself.
    public var relay: (any PushRelay)?
    /// The counters of the webhooks records are posted to (`--webhook URL`), shown by `/metrics` and
    /// `/api/v1/stats`; the deliveries themselves run outside this module.
    public var webhooks: [WebhookStatistics] = []
    /// Where device states and fault rules are shared with other instances (`--store`): the control API writes
    /// there as well as to this mock's own registry and plan; nil = they are this instance's alone.
    public var sharedState: (any SharedStateStore)?
    /// How many records stay in memory.
    public var memoryLimit = 50_000
    /// Event loops (threads); nil = one per core.
    public var loopCount: Int?
    /// Most client connections open at once; more are closed as they arrive.
    public var maxConnections = 10_000
    /// Connections with no traffic and no open stream for this long are closed with GOAWAY `IdleTimeout`;
    /// nil = never. APNs does not document its idle limit (unverified), so the default is a generous hour.
    public var idleTimeout: Duration? = .seconds(3600)
    /// Largest request body buffered; larger bodies are answered 413 without being kept.
    public var maxBodyBytes = 64 * 1024
    /// Folder of the bundled credentials; nil = search the usual places.
    public var credentialsDirectory: String?

    /// Where the server logs: listening, connections (trace), rejected requests and faults (debug).
    public var logger = Logger(label: "mockapns")

    /// The defaults.
    public init() {}
}
