import APNsModel
import Logging
import MockAPNs
import MockAPNsHTTP1
import MockAPNsHTTP2
import MockAPNsRelay
import ServiceLifecycle
import Synchronization

/// An in-process APNs mock for a test: port 0, TLS with the bundled test CA, the bundled test key trusted,
/// development mode. Start one per test, point the sender at ``url`` (trusting ``caCertificatePEM`` and
/// signing with ``testKey``), send, then assert on ``notifications``.
///
/// ```swift
/// let mock = try await APNsMock.start()
/// defer { Task { await mock.stop() } }            // or: try await APNsMock.withMock { mock in … }
/// let client = try mock.makeClient()
/// try await client.send(notification, deviceToken: token)
/// XCTAssertReceived(mock, .topic("com.example.shop"), .alertTitle("Your order shipped"))
/// ```
///
/// With `options.http1` it also serves plain HTTP/1.1 at ``http1URL`` (no TLS, no CA to trust), for senders such as
/// APNSwift's `.custom(url: "http://127.0.0.1", port: mock.http1Port!)`; both listeners share one pipeline. With
/// `options.relay` it sends the pushes it accepts on to an upstream and answers with the upstream's answer.
///
/// Named `APNsMock` (not `MockAPNs`) because `MockAPNs` is the server module it wraps.
public final class APNsMock: Sendable {
    /// The mock behind it: recording, devices, faults (for this package's own tests; a sender's test uses the
    /// methods of this type).
    package let mock: Mock
    /// Its HTTP/2 listener.
    package let server: APNsHTTP2Listener
    /// The bundled test CA (PEM) that signed the mock's certificate: the sender's only trusted root.
    public let caCertificatePEM: String
    /// The signing key the mock trusts, for provider-token authentication.
    public let testKey: TestSigningKey
    /// The plain HTTP/1.1 listener, when `APNsMockOptions.http1` asked for it.
    public let http1Server: APNsHTTP1Listener?
    /// The relay to the upstream, when `APNsMockOptions.relay` asked for one; closed by ``stop(gracePeriod:)``.
    private let relay: APNsClientRelay?
    /// The mock, its relay and its listeners as one group, as `mockapns serve` runs them.
    private let services: BackgroundServiceGroup
    private let stopped = Atomic<Bool>(false)

    private init(mock: Mock, server: APNsHTTP2Listener, caCertificatePEM: String, testKey: TestSigningKey, http1Server: APNsHTTP1Listener?,
                 relay: APNsClientRelay?, services: BackgroundServiceGroup) {
        self.mock = mock
        self.server = server
        self.caCertificatePEM = caCertificatePEM
        self.testKey = testKey
        self.http1Server = http1Server
        self.relay = relay
        self.services = services
    }

    /// Starts a mock with `options` on a free port; throws a sentence saying what to fix.
    public static func start(_ options: APNsMockOptions = APNsMockOptions()) async throws(APNsMockError) -> APNsMock {
        let credentials: BundledCredentials
        if let directory = options.credentialsDirectory {
            credentials = BundledCredentials(directory: directory)
        } else {
            do {
                credentials = try BundledCredentials.locate()
            } catch {
                throw .cannotStart(error.description)
            }
        }
        let caPEM = try APNsMockError.readText(credentials.caPath)
        let key = try TestSigningKey.bundled(in: credentials)
        var deployment = options.deployment(credentialsDirectory: credentials.directory)
        let relayMatch = try options.relayMatchQuery()
        // Before anything listens: a relay that cannot be made stops the start with the field to fix.
        var relay: APNsClientRelay?
        if let relayConfiguration = options.relay {
            do {
                relay = try APNsClientRelay(configuration: relayConfiguration)
            } catch {
                throw .cannotStart(error.description)
            }
        }
        if let relay {
            var settings = RelaySettings(upstream: relay)
            settings.match = relayMatch
            settings.relaysRejected = options.relayRejected
            settings.recordsCredentials = options.recordsRelayedCredentials
            deployment.mock.relay = settings
        }
        let mock: Mock
        let server: APNsHTTP2Listener
        let http1Server: APNsHTTP1Listener?
        do {
            mock = try Mock(configuration: deployment.mock)
            server = try APNsHTTP2Listener(mock: mock, configuration: deployment.listener)
            var logger = Logger(label: "mockapns.http1")
            logger.logLevel = options.logLevel
            http1Server = try deployment.http1.map { try APNsHTTP1Listener(mock: mock, configuration: $0, logger: logger) }
        } catch {
            await relay?.shutdown()
            throw .cannotStart("\(error)")
        }
        // In `mockapns serve`'s order: stopped in reverse, the listeners first, then the relay's last answers come
        // back, then the recording is flushed.
        var parts: [any Service] = [mock]
        if let relay { parts.append(ClosingService("relay") { await relay.shutdown() }) }
        parts.append(server)
        if let http1Server { parts.append(http1Server) }
        var lifecycleLogger = Logger(label: "mockapns.lifecycle")
        lifecycleLogger.logLevel = .warning
        let services = BackgroundServiceGroup(parts, logger: lifecycleLogger)
        do {
            try await server.waitUntilListening()
            try await http1Server?.waitUntilListening()
        } catch {
            await services.stop()
            throw .cannotStart("\(error)")
        }
        return APNsMock(mock: mock, server: server, caCertificatePEM: caPEM, testKey: key, http1Server: http1Server, relay: relay,
                        services: services)
    }

    /// Starts a mock, runs `body` with it, and stops it however `body` ends.
    public static func withMock<Result>(
        _ options: APNsMockOptions = APNsMockOptions(),
        isolation: isolated (any Actor)? = #isolation,
        _ body: (APNsMock) async throws -> Result
    ) async throws -> Result {
        let mock = try await start(options)
        do {
            let result = try await body(mock)
            await mock.stop()
            return result
        } catch {
            await mock.stop()
            throw error
        }
    }

    /// Where senders connect, e.g. `https://127.0.0.1:40123`.
    public var url: String { server.url }
    /// The address the mock listens on, `127.0.0.1`.
    public var host: String { server.configuration.host }
    /// The port the mock is bound to.
    public var port: Int { server.port }
    /// Where HTTP/1.1 senders connect, e.g. `http://127.0.0.1:40124`; nil unless `APNsMockOptions.http1` is set.
    public var http1URL: String? { http1Server?.url }
    /// The HTTP/1.1 listener's port (what APNSwift's `.custom(url:port:)` takes); nil unless `APNsMockOptions.http1`.
    public var http1Port: Int? { http1Server?.port }

    /// Closes every connection (letting in-flight requests finish for up to `gracePeriod`), then the relay's
    /// connections upstream, flushes the recording and frees the port and threads. Records stay readable afterwards.
    public func stop(gracePeriod: Duration = .milliseconds(200)) async {
        stopped.store(true, ordering: .relaxed)
        server.shutdownGracePeriod = gracePeriod
        await services.stop()
    }

    /// A safety net for a forgotten ``stop(gracePeriod:)``: the port and threads are freed in the background.
    deinit {
        guard !stopped.load(ordering: .relaxed) else { return }
        let services = self.services
        Task { await services.stop() }
    }
}
