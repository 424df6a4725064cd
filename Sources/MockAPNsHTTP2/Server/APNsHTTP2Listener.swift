import APNsCrypto
import APNsModel
import HTTP2
import MockAPNs
import NIOPosix
import Support

/// The mock's HTTP/2 listener: a ``Mock`` served over nghttp2 and OpenSSL on one port (or four, under
/// `--apple-hosts`), with the TLS identity senders verify it by.
public final class APNsHTTP2Listener: Sendable {
    /// The mock it serves.
    public let mock: Mock
    /// The listener's settings.
    public let configuration: ListenerConfiguration
    /// The CA certificate (PEM file) that signed the server certificate, for senders to trust; nil without TLS or when
    /// the certificate came from `--cert` (its issuer is not known to the mock).
    public let certificateAuthorityPath: String?
    /// The bundled test credentials the listener or its mock use (nil when every file was given).
    public let credentials: BundledCredentials?
    private let transport: HTTP2Server
    /// The pipeline as an HTTP/2 request handler (shared by the socket server and embedded connections).
    private let handler: PipelineHTTP2Handler
    /// The bound port, once ``run()`` has bound it.
    let listening = Readiness<Int>()
    private let gracePeriod: Locked<Duration>

    /// How long in-flight streams may finish after GOAWAY when the listener stops as a service; from
    /// ``ListenerConfiguration/shutdownGracePeriod``, changeable until it stops.
    public var shutdownGracePeriod: Duration {
        get { gracePeriod.withLock { $0 } }
        set { gracePeriod.withLock { $0 = newValue } }
    }

    /// Resolves the TLS identity and binds the ports; throws a sentence saying what to fix. With `sharedPort`, one of
    /// the ports serves another server's names too (``SharedPort``).
    public init(mock: Mock, configuration: ListenerConfiguration = ListenerConfiguration(), sharedPort: SharedPort? = nil) throws {
        self.mock = mock
        self.configuration = configuration
        gracePeriod = Locked(configuration.shutdownGracePeriod)
        let logger = mock.configuration.logger
        var transportConfiguration = HTTP2ServerConfiguration()
        transportConfiguration.host = configuration.host
        transportConfiguration.port = configuration.port
        transportConfiguration.maxConcurrentStreams = mock.configuration.maxConcurrentStreams
        transportConfiguration.maxBodyBytes = configuration.maxBodyBytes
        transportConfiguration.maxHeaderListSize = UInt32(clamping: configuration.maxHeaderListSize)
        transportConfiguration.maxConnections = configuration.maxConnections
        transportConfiguration.idleTimeout = configuration.idleTimeout
        transportConfiguration.timeoutGoAwayDebugData = Pipeline.reasonBody(APNsReason.idleTimeout.rawValue, timestamp: nil)
        transportConfiguration.logger = logger
        transportConfiguration.intakeGate = mock.recorder.intake
        transportConfiguration.connectionIDs = { [mock] in mock.newConnectionID() }
        switch configuration.loops {
        case .shared: transportConfiguration.eventLoopGroup = .singleton
        case .own(let count): transportConfiguration.loopCount = max(1, count)
        }
        var roles: [ListenerRole] = [.mock]
        if let apple = configuration.appleHosts {
            transportConfiguration.extraPorts = apple.extraListeners.map(\.port)
            roles = [.applePush] + apple.extraListeners.map(\.role)
        }
        if let sharedPort {
            let ports = [transportConfiguration.port] + transportConfiguration.extraPorts
            guard sharedPort.port != 0, let shared = ports.firstIndex(of: sharedPort.port) else {
                throw ConfigurationError.invalidListener("the port to share, \(sharedPort.port), is not one of the listener's ports \(ports)")
            }
            guard configuration.tls != nil, configuration.loops == .shared else {
                throw ConfigurationError.invalidListener("port \(sharedPort.port) can serve another server's names only over TLS and on the shared loops")
            }
            transportConfiguration.connectionSetup = { channel, intake in
                guard intake.listener == shared else { return channel.eventLoop.makeCompletedFuture { try intake.serve(channel) } }
                return sharedPort.route(channel, intake: intake)
            }
        }
        var authorityPath: String?
        var credentials = mock.credentials
        if let tls = configuration.tls {
            // The bundled folder supplies the server certificate unless --cert/--key give one or a CA issues one.
            let ownCertificate = (tls.certificatePath != nil && tls.privateKeyPath != nil)
                || tls.certificateAuthorityDirectory != nil
            if credentials == nil && !ownCertificate { credentials = try Mock.bundledCredentials(mock.configuration) }
            let identity = try ServerIdentity.resolve(tls, appleHosts: configuration.appleHosts != nil,
                                                      credentials: credentials)
            authorityPath = identity.certificateAuthorityPath
            transportConfiguration.tls = TLSConfiguration(
                certificateChain: .string(identity.certificateChainPEM),
                privateKey: .string(identity.privateKeyPEM),
                clientCA: try (mock.configuration.clientCAPath ?? credentials?.caPath).map { path throws(ConfigurationError) in
                    PEMSource.string(try Mock.readText(path))
                },
                // Any client certificate is taken; the pipeline answers 403 BadCertificate for untrusted ones.
                requestClientCertificate: true)
        }
        certificateAuthorityPath = authorityPath
        self.credentials = credentials
        handler = PipelineHTTP2Handler(pipeline: mock.pipeline, logger: logger, roles: roles)
        transport = try HTTP2Server(configuration: transportConfiguration, handler: handler)
    }

    /// A connection to this mock driven in memory: the same transport settings, pipeline, recorder, devices and faults
    /// as the listening server, with no socket and no thread (``EmbeddedHTTP2Connection``). For fuzzing and for tests
    /// that script the bytes; it works whether or not ``start()`` was called.
    public func makeEmbeddedConnection() throws -> EmbeddedHTTP2Connection {
        try EmbeddedHTTP2Connection(configuration: transport.configuration, handler: handler)
    }

    /// Binds and starts listening (``run()`` does this as a service; a test may call it and ``shutdown(gracePeriod:)``
    /// itself).
    public func start() async throws {
        try await transport.start()
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
    public var url: String { configuration.url(port: port) }

    /// GOAWAY to every client, lets in-flight streams finish (up to `gracePeriod`), and closes. The mock keeps
    /// its recording open for its other listeners: its owner calls ``Mock/shutdown()`` once they have all stopped.
    public func shutdown(gracePeriod: Duration = .seconds(2)) async {
        await transport.shutdown(gracePeriod: gracePeriod)
    }
}
