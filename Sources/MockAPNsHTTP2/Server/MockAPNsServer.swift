import APNsCrypto
import APNsModel
import Foundation
import HTTP2
import MockAPNs

/// The mock APNs server: the HTTP/2 transport, the pipeline, and the state a test or the control plane
/// reads and steers (recorder, device registry, fault plan, channels).
public final class MockAPNsServer: Sendable {
    /// The configuration it was started with.
    public let configuration: MockServerConfiguration
    /// The decision path (also used by the HTTP/1.1 endpoint).
    public let pipeline: Pipeline
    /// Credentials found for defaults (nil when every file was given explicitly and no bundled keys are used).
    public let credentials: BundledCredentials?
    /// The CA certificate (PEM file) that signed the server certificate, for senders to trust; nil without TLS or when
    /// the certificate came from `--cert` (its issuer is not known to the mock).
    public let certificateAuthorityPath: String?
    private let transport: HTTP2Server
    /// The pipeline as an HTTP/2 request handler (shared by the socket server and embedded connections).
    private let handler: PipelineHTTP2Handler

    /// Every recorded request.
    public var recorder: Recorder { pipeline.recorder }
    /// Devices that should not answer 200.
    public var devices: DeviceRegistry { pipeline.devices }
    /// What happened to each virtual device besides its pushes (online, app state, settings…): with the recording,
    /// the events its screen is computed from (``DeviceChangeLog/timeline(token:records:)``).
    public let deviceChanges = DeviceChangeLog()
    /// Scripted faults.
    public var faults: FaultPlan { pipeline.faults }

    /// Loads credentials, devices and faults and binds the port; throws a sentence saying what to fix.
    public init(configuration: MockServerConfiguration) throws {
        self.configuration = configuration
        // The bundled folder supplies what was not given: the keys, the server certificate (unless --cert/--key give
        // one or --ca-dir's CA issues one) and the CA client certificates chain to (unless --ca).
        let ownServerCertificate = (configuration.certificatePath != nil && configuration.privateKeyPath != nil)
            || configuration.certificateAuthorityDirectory != nil
        let needsBundled = configuration.trustBundledKeys
            || (configuration.tls && (!ownServerCertificate || configuration.clientCAPath == nil))
        let credentials: BundledCredentials? = needsBundled
            ? try configuration.credentialsDirectory.map(BundledCredentials.init(directory:)) ?? BundledCredentials.locate()
            : nil
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
                                    synchronousStore: configuration.recordSync)
        let devices = DeviceRegistry()
        if let path = configuration.devicesPath { try devices.load(contentsOf: path, changes: deviceChanges) }
        let faults = FaultPlan()
        if let path = configuration.faultsPath { try faults.load(contentsOf: path) }
        if let shared = configuration.sharedState { faults.claimCounts(through: shared) }
        let pipeline = Pipeline(
            configuration: configuration.pipeline,
            tokens: ProviderTokenAuthenticator(keys: keys, trustAnySignature: configuration.trustAnySignature),
            certificates: CertificateAuthenticator(trustStore: trustStore),
            recorder: recorder, devices: devices, faults: faults, relay: configuration.relay,
            logger: configuration.logger)
        self.pipeline = pipeline

        var transportConfiguration = HTTP2ServerConfiguration()
        transportConfiguration.host = configuration.host
        transportConfiguration.port = configuration.port
        transportConfiguration.maxConcurrentStreams = configuration.pipeline.maxConcurrentStreams
        transportConfiguration.maxBodyBytes = configuration.maxBodyBytes
        transportConfiguration.maxConnections = configuration.maxConnections
        transportConfiguration.idleTimeout = configuration.idleTimeout
        transportConfiguration.timeoutGoAwayDebugData = Pipeline.reasonBody(APNsReason.idleTimeout.rawValue, timestamp: nil)
        transportConfiguration.logger = configuration.logger
        if let loops = configuration.loopCount { transportConfiguration.loopCount = loops }
        var roles: [ListenerRole] = [.mock]
        if let apple = configuration.appleHosts {
            transportConfiguration.extraPorts = apple.extraListeners.map(\.port)
            roles = [.applePush] + apple.extraListeners.map(\.role)
        }
        var authorityPath: String?
        if configuration.tls {
            let identity = try ServerIdentity.resolve(configuration, credentials: credentials)
            authorityPath = identity.certificateAuthorityPath
            transportConfiguration.tls = TLSConfiguration(
                certificateChain: .string(identity.certificateChainPEM),
                privateKey: .string(identity.privateKeyPEM),
                clientCA: try (configuration.clientCAPath ?? credentials?.caPath).map { path throws(ConfigurationError) in
                    PEMSource.string(try Self.readText(path))
                },
                // Any client certificate is taken; the pipeline answers 403 BadCertificate for untrusted ones.
                requestClientCertificate: true)
        }
        certificateAuthorityPath = authorityPath
        handler = PipelineHTTP2Handler(pipeline: pipeline, logger: configuration.logger, roles: roles)
        transport = try HTTP2Server(configuration: transportConfiguration, handler: handler)
    }

    /// A connection to this mock driven in memory: the same transport settings, pipeline, recorder, devices and faults
    /// as the listening server, with no socket and no thread (``EmbeddedHTTP2Connection``). For fuzzing and for tests
    /// that script the bytes; it works whether or not ``start()`` was called.
    public func makeEmbeddedConnection() throws -> EmbeddedHTTP2Connection {
        try EmbeddedHTTP2Connection(configuration: transport.configuration, handler: handler)
    }

    /// Starts listening.
    public func start() throws {
        try transport.start()
    }

    /// The port actually bound (useful with port 0).
    public var port: Int { transport.localPort }

    /// Under `--apple-hosts`, Apple's port → the port the mock really listens on (443, 2197, 2195, 2196), for a
    /// sender's routing to map; empty otherwise.
    public var applePorts: [Int: Int] {
        guard let apple = configuration.appleHosts else { return [:] }
        let bound = transport.localPorts
        var ports = [2197: port]
        for (index, listener) in apple.extraListeners.enumerated() where index + 1 < bound.count {
            ports[listener.applePort] = bound[index + 1]
        }
        return ports
    }

    /// The URL senders use, e.g. `https://127.0.0.1:2197`.
    public var url: String {
        let host = configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host
        return "\(configuration.tls ? "https" : "http")://\(host):\(port)"
    }

    /// GOAWAY to every client, lets in-flight streams finish (up to `gracePeriod`), closes, and flushes
    /// the record file.
    public func shutdown(gracePeriod: Duration = .seconds(2)) async {
        await transport.shutdown(gracePeriod: gracePeriod)
        recorder.shutdown()
    }

    static func readText(_ path: String) throws(ConfigurationError) -> String {
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
            throw .unreadableFile(path)
        }
        return text
    }
}
