import APNsModel
import Logging

/// What the mock is, whatever carries its requests: the credentials it trusts, the pipeline's behaviour, the devices
/// and faults it starts with, where records go, and what else sees them. The listeners' own settings (address, port,
/// TLS identity) belong to each transport (`MockServerConfiguration` for HTTP/2, the HTTP/1.1 endpoint's for that).
///
/// The defaults give a working mock: the bundled test keys and test CA trusted, development mode, records in memory.
public struct MockConfiguration: Sendable {
    /// Extra trusted keys, each `TEAMID:KEYID:PATH[:development|production|both]`.
    public var keyFiles: [String] = []
    /// Trust the bundled test keys (`certs/keys.json`).
    public var trustBundledKeys = true
    /// Check JWT shape, claims and time but not signatures.
    public var trustAnySignature = false
    /// CA that client certificates must chain to; nil = the bundled `ca.pem`.
    public var clientCAPath: String?
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
    /// only the memory ring and `recordPath`. `recordSync` waits for its commit too.
    public var recordStore: (any RecordStore)?
    /// Where accepted device pushes are sent on, their answer going back to the sender (`--relay URL`,
    /// `APNsMockOptions.relay`: an `APNsClientRelay` of MockAPNsRelay); nil = the mock answers everything itself.
    public var relay: (any PushRelay)?
    /// The counters of the webhooks records are posted to (`--webhook URL`), shown by `/metrics` and
    /// `/api/v1/stats`; the deliveries themselves run outside this module.
    public var webhooks: [WebhookStatistics] = []
    /// Where device states and fault rules are shared with other instances (`--store`): the control API writes
    /// there as well as to this mock's own registry and plan; nil = they are this instance's alone.
    public var sharedState: (any SharedStateStore)?
    /// How many records stay in memory.
    public var memoryLimit = 50_000
    /// How many records the record file's and the store's writer each queue before the listeners stop reading new
    /// requests until it catches up (`--record-queue`).
    public var recordQueueLimit = Recorder.defaultWriterQueueLimit
    /// Folder of the bundled credentials; nil = search the usual places (``BundledCredentials/locate(sourceFile:)``).
    public var credentialsDirectory: String?

    /// Where the mock logs: rejected requests and faults (debug), and its listeners' start and stop.
    public var logger = Logger(label: "mockapns")

    /// The defaults.
    public init() {}
}
