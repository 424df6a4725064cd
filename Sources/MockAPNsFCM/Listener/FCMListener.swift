import HTTP2
import Logging
import MockAPNs
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import NIOTLS
import ServiceLifecycle
import Support

/// One TLS port of the FCM front door, with ALPN `h2` and `http/1.1` on the same port as Google serves (`requests`
/// speaks HTTP/1.1, httpx and node's `http2` speak HTTP/2), and a certificate for Google's names and the loopback
/// ones signed by the mock's private CA.
///
/// NIOSSL ends TLS. A connection that negotiates `h2` is served by the nghttp2 core the APNs listener runs on
/// (``FCMHTTP2Handler``), so a message pays for one HTTP/2 session and no task per stream; one that negotiates
/// `http/1.1`, or nothing, gets SwiftNIO's HTTP/1.1 server pipeline (``FCMHTTP1Handler``). Both run on SwiftNIO's
/// shared loops, one per core, as the mock's other listeners do.
///
/// A `Service`: it binds in ``run()``, reports its port through ``waitUntilListening()``, and on graceful shutdown
/// stops accepting, lets HTTP/2 streams in flight finish (GOAWAY), and closes its HTTP/1.1 connections.
public final class FCMListener: Service, Sendable {
    /// What a port stands for, for logs and the ready file.
    public enum Role: String, Sendable {
        /// The mock's own FCM port (`--fcm-port`).
        case own = "the FCM front door"
        /// The port behind Google's names (`--fcm-https-port`, 443).
        case google = "the FCM front door for Google's names"
    }

    /// What this port stands for.
    public let role: Role
    private let frontDoor: FCMFrontDoor
    private let host: String
    private let requestedPort: Int
    private let tls: NIOSSLContext
    private let logger: Logger
    private let listening = Readiness<Int>()
    private let bound = Locked<Int?>(nil)
    /// The HTTP/2 server while it runs, for ``adopt(_:)``.
    private let server = Locked<HTTP2Server?>(nil)
    /// The open HTTP/1.1 connections, which the HTTP/2 server's shutdown does not reach: closed when the listener stops.
    private let http1Connections = Locked<[ObjectIdentifier: any Channel]>([:])
    /// How long a connection may take to finish its TLS handshake before it is closed, so silent TCP connections do
    /// not hold descriptors (the HTTP/2 server's own preface timeout starts only once `h2` is chosen).
    static let handshakeTimeout = TimeAmount.seconds(10)

    /// A listener of `frontDoor` on `host:port` (0: a free port) presenting `identity`.
    public init(frontDoor: FCMFrontDoor, role: Role, host: String, port: Int, identity: FCMIdentity, logger: Logger) throws(FCMSetupError) {
        self.frontDoor = frontDoor
        self.role = role
        self.host = host
        requestedPort = port
        self.logger = logger
        do {
            let chain = try NIOSSLCertificate.fromPEMBytes(Array(identity.certificateChainPEM.utf8)).map { NIOSSLCertificateSource.certificate($0) }
            let key = try NIOSSLPrivateKey(bytes: Array(identity.privateKeyPEM.utf8), format: .pem)
            var tls = TLSConfiguration.makeServerConfiguration(certificateChain: chain, privateKey: .privateKey(key))
            tls.applicationProtocols = ["h2", "http/1.1"]
            // On close, NIOSSL waits this long for the peer's close_notify (5 s by default). An idle keep-alive client
            // (requests' pool, node's agent) never reads it until its next request, so shutting down waited the whole
            // default for each such connection; a peer that answers does so within milliseconds.
            tls.shutdownTimeout = .milliseconds(250)
            self.tls = try NIOSSLContext(configuration: tls)
        } catch {
            throw .file(path: "the FCM certificate", problem: "TLS cannot use it: \(error)")
        }
    }

    /// The bound port while listening.
    public var port: Int? { bound.withLock { $0 } }

    /// Returns the bound port once listening, or throws why it could not bind.
    @discardableResult
    public func waitUntilListening() async throws -> Int { try await listening.value() }

    /// Serves until the group shuts down.
    public func run() async throws {
        var configuration = HTTP2ServerConfiguration(host: host, port: requestedPort)
        configuration.eventLoopGroup = .singleton
        // The mock's choice, Google documents no limit: 100, what the Hummingbird listener before this one advertised
        // and RFC 9113 §6.5.2 recommends as the least.
        configuration.maxConcurrentStreams = 100
        configuration.maxBodyBytes = frontDoor.configuration.maxBodyBytes
        configuration.idleTimeout = frontDoor.configuration.idleTimeout
        configuration.logger = logger
        // While the record writers cannot keep up, a connection stops reading after the request it handed over.
        configuration.intakeGate = frontDoor.mock.recorder.intake
        let (tls, frontDoor, http1Connections) = (self.tls, self.frontDoor, self.http1Connections)
        configuration.connectionSetup = { channel, intake in
            Self.setUp(channel, tls: tls, intake: intake, frontDoor: frontDoor, http1Connections: http1Connections)
        }
        defer {
            bound.withLock { $0 = nil }
            self.server.withLock { $0 = nil }
        }
        let server: HTTP2Server
        do {
            server = try HTTP2Server(configuration: configuration, handler: FCMHTTP2Handler(frontDoor: frontDoor))
            try await server.start()
        } catch {
            let failure = FCMListenerError(role: role, host: host, port: requestedPort, reason: Self.reason(error))
            listening.fail(failure)
            throw failure
        }
        let port = server.localPort
        bound.withLock { $0 = port }
        self.server.withLock { $0 = server }
        logger.info("FCM front door listening", metadata: ["role": "\(role.rawValue)", "url": "https://\(host):\(port)"])
        listening.succeed(port)
        try? await gracefulShutdown()
        // HTTP/1.1 connections close once the answer in flight, if any, is written (NIO's pipelining handler quiesces
        // on this event); HTTP/2 ones get GOAWAY and their streams finish. What is left after the grace period closes.
        let deadline = ContinuousClock.now + Self.shutdownGracePeriod
        for channel in http1Connections.withLock({ Array($0.values) }) {
            channel.pipeline.fireUserInboundEventTriggered(ChannelShouldQuiesceEvent())
        }
        await server.shutdown(gracePeriod: Self.shutdownGracePeriod)
        while ContinuousClock.now < deadline && !http1Connections.withLock({ $0.isEmpty }) {
            try? await Task.sleep(for: .milliseconds(10))
        }
        let open = http1Connections.withLock { connections in
            defer { connections.removeAll() }
            return Array(connections.values)
        }
        for channel in open { try? await channel.close() }
    }

    /// How long answers in flight may take once the listener stops.
    static let shutdownGracePeriod = Duration.seconds(5)

    /// Serves a connection another listener accepted, as if this one had: under `--apple-hosts` beside `--fcm` on one
    /// port, the APNs listener hands over each connection whose ClientHello names one of Google's names, on SwiftNIO's
    /// shared loops, which this listener runs on too. Closed when this listener is not running.
    public func adopt(_ channel: any Channel) -> EventLoopFuture<Void> {
        guard let intake = server.withLock({ $0 })?.intake(on: channel.eventLoop) else {
            logger.debug("FCM front door not running: closing a connection for Google's names", metadata: ["role": "\(role.rawValue)"])
            return channel.close()
        }
        return Self.setUp(channel, tls: tls, intake: intake, frontDoor: frontDoor, http1Connections: http1Connections)
    }

    /// One accepted connection's pipeline: TLS, then by ALPN the HTTP/2 core or SwiftNIO's HTTP/1.1 server.
    private static func setUp(_ channel: any Channel, tls: NIOSSLContext, intake: HTTP2ConnectionIntake, frontDoor: FCMFrontDoor,
                              http1Connections: Locked<[ObjectIdentifier: any Channel]>) -> EventLoopFuture<Void> {
        channel.eventLoop.makeCompletedFuture {
            let handshake = channel.eventLoop.assumeIsolated().scheduleTask(in: handshakeTimeout) { channel.close(promise: nil) }
            try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: tls))
            try channel.pipeline.syncOperations.addHandler(ApplicationProtocolNegotiationHandler { result, channel in
                handshake.cancel()
                return channel.eventLoop.makeCompletedFuture {
                    if case .negotiated("h2") = result {
                        try intake.serve(channel)
                        return
                    }
                    let idle = frontDoor.configuration.idleTimeout.nanoseconds
                    try channel.pipeline.syncOperations.addHandler(IdleStateHandler(allTimeout: .nanoseconds(max(1, Int64(clamping: idle)))))
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline(withErrorHandling: true)
                    try channel.pipeline.syncOperations.addHandler(FCMHTTP1Handler(frontDoor: frontDoor))
                    let key = ObjectIdentifier(channel)
                    http1Connections.withLock { $0[key] = channel }
                    channel.closeFuture.whenComplete { _ in _ = http1Connections.withLock { $0.removeValue(forKey: key) } }
                }
            })
        }
    }
}

extension FCMListener {
    /// Why binding failed, in words.
    static func reason(_ error: any Error) -> String {
        switch error {
        case HTTP2Error.addressInUse: return "the address is already in use"
        case HTTP2Error.bindFailed(_, _, let reason): return reason
        case HTTP2Error.invalidAddress(_, _, let reason): return "it is not an address to listen on (\(reason))"
        default: return "\(error)"
        }
    }
}

/// An FCM port that could not listen, in a sentence naming the flag that moves it.
public struct FCMListenerError: Error, CustomStringConvertible {
    public var role: FCMListener.Role
    public var host: String
    public var port: Int
    public var reason: String

    /// What to change: the flag that moves the port, and for a low port the right to bind it.
    public var remedy: String {
        let flag = role == .own ? "--fcm-port" : "--fcm-https-port"
        var text = "\(flag) (0 picks a free port)"
        if port > 0 && port < 1024 {
            text += ", or give this binary the right to bind low ports (run as root, or `setcap cap_net_bind_service=+ep`)"
        }
        return text
    }

    public var description: String {
        "\(role.rawValue) cannot listen on \(host):\(port): \(reason); change \(remedy)"
    }
}

/// The certificate chain and key an FCM listener presents.
public struct FCMIdentity: Sendable {
    /// PEM.
    public var certificateChainPEM: String
    /// PEM.
    public var privateKeyPEM: String
    /// The CA (PEM file) senders trust it with.
    public var certificateAuthorityPath: String

    /// An identity.
    public init(certificateChainPEM: String, privateKeyPEM: String, certificateAuthorityPath: String) {
        self.certificateChainPEM = certificateChainPEM
        self.privateKeyPEM = privateKeyPEM
        self.certificateAuthorityPath = certificateAuthorityPath
    }

    /// Google's names the front door answers for.
    public static let googleNames = ["fcm.googleapis.com", "oauth2.googleapis.com", "iid.googleapis.com"]
}
