import APNsModel
import Logging

/// What the mock is, whatever carries its requests: the credentials it trusts, how it answers where APNs has
/// choices, the devices and faults it starts with, where records go, what else sees them, and where it relays. Where
/// it listens is each listener's ``ListenerConfiguration``; ``MockDeployment`` holds them together.
///
/// The defaults give a working mock: the bundled test keys and test CA trusted, development mode, records in memory.
public struct MockConfiguration: Sendable {
    // MARK: Trust

    /// Extra trusted keys, each `TEAMID:KEYID:PATH[:development|production|both]`.
    public var keyFiles: [String] = []
    /// Trust the bundled test keys (`certs/keys.json`).
    public var trustBundledKeys = true
    /// Check JWT shape, claims and time but not signatures.
    public var trustAnySignature = false
    /// CA that client certificates must chain to; nil = the bundled `ca.pem`.
    public var clientCAPath: String?
    /// Folder of the bundled credentials; nil = search the usual places (``BundledCredentials/locate(sourceFile:)``).
    public var credentialsDirectory: String?

    // MARK: Answers

    /// Development answers with `apns-unique-id`; production does not.
    public var environment: APNsEnvironment = .development
    /// MAX_CONCURRENT_STREAMS once a connection is authenticated (APNs has been seen at 1000).
    public var maxConcurrentStreams: UInt32 = 1000
    /// Which spelling of the environment-key reason to send (apns-rules §10.1: both are seen).
    public var environmentKeyReason: APNsReason = .badEnvironmentKeyIdInToken
    /// New token connections per second per team above which each one is flagged as connection churn
    /// (`ConnectionChurnMonitor`: a warning, a `new-connection-per-push` finding, a `stats` count). APNs states no
    /// number; 20 leaves room for pools that open a few dozen connections at start. 0 turns the check off.
    public var newConnectionsPerSecondLimit = 20
    /// "Now" for provider-token rules (expiry, refresh rate), devices and screens; tests move it instead of waiting.
    public var clock = MockClock()

    // MARK: Starting state

    /// A `--devices` JSON file to load.
    public var devicesPath: String?
    /// A `--faults` JSON file to load.
    public var faultsPath: String?

    // MARK: Records

    /// A JSON Lines file every record is appended to.
    public var recordPath: String?
    /// Answer each request only once its record's line is written to `recordPath` (`--record-sync`): nothing an
    /// answer claims can be lost to a crash, at a cost in throughput.
    public var recordSync = false
    /// A store every record is also written to, in batches off the event loops (`--store postgres://…`); nil keeps
    /// only the memory ring and `recordPath`. `recordSync` waits for its commit too.
    public var recordStore: (any RecordStore)?
    /// How many records stay in memory.
    public var memoryLimit = 50_000
    /// How many records the record file's and the store's writer each queue before the listeners stop reading new
    /// requests until it catches up (`--record-queue`).
    public var recordQueueLimit = Recorder.defaultWriterQueueLimit
    /// The counters of the webhooks records are posted to (`--webhook URL`), shown by `/metrics` and
    /// `/api/v1/stats`; the deliveries themselves run outside this module.
    public var webhooks: [WebhookStatistics] = []

    // MARK: Others

    /// Where device states and fault rules are shared with other instances (`--store`): the mock's operations write
    /// there as well as to this mock's own registry and plan; nil = they are this instance's alone.
    public var sharedState: (any SharedStateStore)?
    /// Where accepted device pushes are sent on, and which (`serve --relay …`, `APNsMockOptions.relay`); nil = the
    /// mock answers everything itself.
    public var relay: RelaySettings?

    /// Where the mock logs: rejected requests and faults (debug), and its listeners' start and stop.
    public var logger = Logger(label: "mockapns")

    /// The defaults.
    public init() {}
}

/// The mock's relay: the upstream it sends accepted device pushes to, which of them, and what their records keep.
/// The upstream itself (its URL, credentials, pool) is the relay's own business: `MockAPNsRelay`'s `APNsClientRelay`,
/// made from a `RelayConfiguration`.
public struct RelaySettings: Sendable {
    /// Where pushes go.
    public var upstream: any PushRelay
    /// Which accepted device pushes are relayed (`--relay-match`, the dashboard's search grammar); empty: every one.
    public var match = SearchQuery()
    /// Whether device pushes the mock itself rejects are relayed too (`--relay-rejected`): the sender then gets the
    /// upstream's answer and the record keeps both. Off, a broken sender cannot hammer the upstream.
    public var relaysRejected = false
    /// Whether records of relayed pushes keep the sender's provider token whole (`--record-credentials`). Off: a
    /// relayed push's `authorization` is recorded without its signature (header and claims stay readable), since
    /// that token reached a real APNs and a record is read by many.
    public var recordsCredentials = false

    /// Relays every accepted device push to `upstream`, recording tokens without their signature.
    public init(upstream: any PushRelay) {
        self.upstream = upstream
    }
}
