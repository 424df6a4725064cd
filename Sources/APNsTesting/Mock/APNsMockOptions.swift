import APNsModel
import Logging
import MockAPNs
import MockAPNsHTTP1
import MockAPNsHTTP2
import MockAPNsRelay

/// How `APNsMock.start(_:)` sets up the in-process mock. The defaults are what almost every test wants:
/// a free port on 127.0.0.1, TLS with the bundled test CA, the bundled test key trusted, development mode,
/// one event-loop thread.
public struct APNsMockOptions: Sendable {
    /// Development answers with `apns-unique-id`; production does not.
    public var environment: APNsEnvironment = .development
    /// A devices JSON file to load at start (the `mockapns serve --devices` format).
    public var devicesFile: String?
    /// A faults JSON file to load at start (the `mockapns serve --faults` format).
    public var faultsFile: String?
    /// Check provider tokens' shape, claims and time but not their signatures, so a sender may use its own key.
    public var trustAnySignature = false
    /// Extra trusted signing keys, each `TEAMID:KEYID:PATH[:development|production|both][:topic,topic…]` (a topic
    /// list makes a topic-specific key: pushes to other topics get `TopicDisallowed`).
    public var extraKeys: [String] = []
    /// TLS with the bundled test certificate when true; HTTP/2 over cleartext (h2c) when false.
    public var tls = true
    /// Folder of the test credentials (`ca.pem`, `keys.json`, …); nil finds the bundled `certs/`.
    public var credentialsDirectory: String?
    /// A JSON Lines file every record is appended to, for looking at a run afterwards.
    public var recordFile: String?
    /// How many records stay in memory.
    public var memoryLimit = 10_000
    /// Event-loop threads the mock runs on.
    public var eventLoops = 1
    /// Also listen for plain HTTP/1.1 APNs requests (`APNsMock.http1URL`, a free port on 127.0.0.1), for senders that
    /// cannot trust the mock's CA, such as APNSwift's `.custom(url: "http://127.0.0.1", port:)`. Same pipeline,
    /// same records as ``tls``'s listener. Off by default.
    public var http1 = false
    /// Send every device push the mock accepts on to an upstream APNs (Apple's, or another mock: see
    /// `APNsMock.relayConfiguration`) and answer the sender with the upstream's answer; the mock's record keeps both
    /// verdicts (`record.relay`). What `mockapns serve --relay` does. Nil (the default): the mock answers everything
    /// itself.
    public var relay: RelayConfiguration?
    /// With ``relay``: relay the device pushes this mock rejects too (by its rules or its devices; not those a fault
    /// fires on), so the sender gets the upstream's answer to them and the record keeps both (`serve --relay-rejected`).
    public var relayRejected = false
    /// With ``relay``: relay only the accepted device pushes this search matches, in the dashboard's search grammar
    /// (`topic:com.example.app token:ab12 "order"`), as `serve --relay-match` does; the others are answered by the mock
    /// and their records say why they were not relayed. Nil relays every one. A query that does not parse stops
    /// `APNsMock.start(_:)` with the mistake.
    public var relayMatch: String?
    /// With ``relay``: keep relayed pushes' provider tokens whole in the records (`serve --record-credentials`). Off (the
    /// default), a relayed push's `authorization` is recorded without its signature, since that token reached a real
    /// APNs.
    public var recordsRelayedCredentials = false

    /// How much the mock logs into the test's output; warnings only by default, so a passing suite is quiet.
    public var logLevel: Logger.Level = .warning

    /// The defaults.
    public init() {}

    /// The mock and listeners these options stand for, with `credentialsDirectory` resolved and free ports on
    /// 127.0.0.1. Without its relay: `APNsMock.start(_:)` makes that from ``relay`` and owns it.
    func deployment(credentialsDirectory: String) -> MockDeployment {
        var deployment = MockDeployment()
        deployment.mock.credentialsDirectory = credentialsDirectory
        deployment.mock.trustBundledKeys = true
        deployment.mock.trustAnySignature = trustAnySignature
        deployment.mock.keyFiles = extraKeys
        deployment.mock.environment = environment
        deployment.mock.devicesPath = devicesFile
        deployment.mock.faultsPath = faultsFile
        deployment.mock.recordPath = recordFile
        deployment.mock.memoryLimit = memoryLimit
        deployment.mock.logger.logLevel = logLevel
        deployment.listener.port = 0
        deployment.listener.tls = tls ? ListenerConfiguration.TLSIdentity() : nil
        deployment.listener.loops = .own(eventLoops)
        if http1 {
            var plain = ListenerConfiguration.plainHTTP1
            plain.loops = deployment.listener.loops
            deployment.http1 = plain
        }
        return deployment
    }

    /// ``relayMatch`` parsed (empty when nil); throws the mistake when it does not parse, relay or not.
    func relayMatchQuery() throws(APNsMockError) -> SearchQuery {
        guard let relayMatch else { return SearchQuery() }
        do {
            return try SearchQuery(parsing: relayMatch)
        } catch {
            throw .cannotStart("relayMatch \"\(relayMatch)\": \(error)")
        }
    }
}
