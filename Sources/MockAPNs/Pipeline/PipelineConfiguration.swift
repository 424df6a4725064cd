import APNsModel

/// How the pipeline behaves where APNs has choices: environment, stream limit, reason spellings.
public struct PipelineConfiguration: Sendable {
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

    /// Which accepted device pushes are relayed (`serve --relay-match`, the dashboard's search grammar); empty:
    /// every one.
    public var relayMatch = SearchQuery()
    /// Whether device pushes the mock itself rejects are relayed too (`serve --relay-rejected`): the sender then gets
    /// the upstream's answer and the record keeps both. Off, a broken sender cannot hammer the upstream.
    public var relaysRejected = false

    /// Whether records of relayed pushes keep the sender's provider token whole (`serve --record-credentials`).
    /// Off: a relayed push's `authorization` is recorded without its signature (header and claims stay readable),
    /// since that token reached a real APNs and a record is read by many.
    public var recordsRelayedCredentials = false

    /// "Now" for provider-token rules (expiry, refresh rate); tests move it instead of waiting.
    public var clock = MockClock()

    /// The defaults: development, 1000 streams, Apple's documented spelling.
    public init() {}
}
