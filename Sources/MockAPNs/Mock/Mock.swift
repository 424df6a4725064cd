import APNsCrypto
import Foundation
import Synchronization

/// The mock APNs service with no transport: the pipeline that decides every request, and the state a test or the
/// control plane reads and steers — the recording, the device registry and its change log, the fault plan, the
/// broadcast channels. Each listener (the HTTP/2 server, the HTTP/1.1 endpoint, an embedded connection) takes one
/// `Mock` and hands it requests, so every listener of one mock shares one recording and one set of devices.
///
/// Whoever makes the mock owns it: stop its listeners first, then ``shutdown()`` flushes the recording.
public final class Mock: Sendable {
    /// The configuration it was made with.
    public let configuration: MockConfiguration
    /// The decision path every transport hands its requests to.
    package let pipeline: Pipeline
    /// The bundled test credentials it uses (nil when nothing bundled was asked for: no bundled keys, an own CA).
    public let credentials: BundledCredentials?
    /// What happened to each virtual device besides its pushes (online, app state, settings…): with the recording,
    /// the events its screen is computed from (``DeviceChangeLog/timeline(token:records:)``).
    public let deviceChanges = DeviceChangeLog()
    /// The next connection id ``newConnectionID()`` hands out.
    private let nextConnectionID = Atomic<UInt64>(Mock.firstMintedConnectionID)

    /// Where the ids the mock mints start.
    public static let firstMintedConnectionID: UInt64 = 1

    /// A connection id of this mock's: every listener of one mock (HTTP/2, HTTP/1.1, the FCM front door's uplink,
    /// an embedded connection) draws from here, so no two connections in its records share an id.
    public func newConnectionID() -> UInt64 {
        nextConnectionID.wrappingAdd(1, ordering: .relaxed).oldValue
    }

    /// Every recorded request.
    public var recorder: Recorder { pipeline.recorder }
    /// Devices that should not answer 200.
    public var devices: DeviceRegistry { pipeline.devices }
    /// Scripted faults.
    public var faults: FaultPlan { pipeline.faults }
    /// The mock's clock: the time its rules, devices and screens read, which a test may move.
    public var clock: MockClock { configuration.clock }
    /// What the relay did (`serve --relay`), or nil when the mock relays nothing.
    public var relayStatistics: RelayStatistics? { pipeline.relay == nil ? nil : pipeline.relayStatistics }
    /// How many connections the mock's listeners hold open.
    public var openConnections: Int { pipeline.openConnections }

    /// Loads credentials, devices and faults and opens the recording; throws a sentence saying what to fix.
    public init(configuration: MockConfiguration) throws {
        self.configuration = configuration
        // The bundled folder supplies what was not given: the test keys, and the CA client certificates chain to.
        let credentials: BundledCredentials? = configuration.trustBundledKeys || configuration.clientCAPath == nil
            ? try Self.bundledCredentials(configuration) : nil
        self.credentials = credentials

        var keys = TrustedKeyStore()
        if configuration.trustBundledKeys, let credentials { try keys.add(keysJSONAt: credentials.keysPath) }
        for value in configuration.keyFiles { try keys.add(keyFileArgument: value) }
        var trustStore: CertificateTrustStore?
        if let caPath = configuration.clientCAPath ?? credentials?.caPath {
            trustStore = try CertificateTrustStore(caPEM: try Self.readText(caPath))
        }
        let recorder = try Recorder(memoryLimit: configuration.memoryLimit, filePath: configuration.recordPath,
                                    synchronousFile: configuration.recordSync, store: configuration.recordStore,
                                    synchronousStore: configuration.recordSync,
                                    writerQueueLimit: configuration.recordQueueLimit)
        let devices = DeviceRegistry()
        if let path = configuration.devicesPath { try devices.load(contentsOf: path, changes: deviceChanges) }
        let faults = FaultPlan()
        if let path = configuration.faultsPath { try faults.load(contentsOf: path) }
        if let shared = configuration.sharedState { faults.claimCounts(through: shared) }
        pipeline = Pipeline(
            configuration: configuration,
            tokens: ProviderTokenAuthenticator(keys: keys, trustAnySignature: configuration.trustAnySignature),
            certificates: CertificateAuthenticator(trustStore: trustStore),
            recorder: recorder, devices: devices, faults: faults,
            logger: configuration.logger)
    }

    /// Flushes the record file and the store and stops recording. Call it after the listeners have stopped.
    public func shutdown() {
        recorder.shutdown()
    }

    /// The bundled credentials `configuration` points at, or the ones found in the usual places.
    public static func bundledCredentials(_ configuration: MockConfiguration) throws(ConfigurationError) -> BundledCredentials {
        if let directory = configuration.credentialsDirectory { return BundledCredentials(directory: directory) }
        return try BundledCredentials.locate()
    }

    /// A configuration file's text; throws naming the file.
    public static func readText(_ path: String) throws(ConfigurationError) -> String {
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
            throw .unreadableFile(path)
        }
        return text
    }
}
