import DeviceSimulation
import Foundation
import Hummingbird
import Logging
import MockAPNs
import MockAPNsFCM
import ServiceLifecycle
import Support

/// The control plane: an HTTP/1.1 JSON API over a ``Mock`` — its recording, device registry and fault plan — plus
/// a live event stream, Prometheus `/metrics` and `/healthz`. It knows no transport: whichever listeners serve the
/// mock, it reads and steers the same state.
///
/// ```swift
/// let control = ControlServer(mock: mock, configuration: .init(port: 0))
/// let port = try await control.start()   // serving now, in a group of its own
/// …
/// await control.stop()
/// ```
///
/// It is a `Service` (``run()``): `mockapns serve` runs it in the mock's one `ServiceGroup`; ``start()`` runs it in a
/// group of its own for an owner that has none.
///
/// Web pages other than its own are kept out (``BrowserRequestPolicy``): without a token, requests must be
/// addressed to a loopback name, and a request carrying another site's `Origin` is refused with 403.
///
/// Routes (JSON; errors are `{"error": "…"}` with 400, 401, 403 or 404):
/// - `GET /api/v1/notifications?token=&topic=&push_type=&status=&reason=&since=&limit=` → `{"notifications": [record…]}`
/// - `GET /api/v1/notifications/{seq or apns-id}` → one record; `DELETE /api/v1/notifications` → `{"cleared": n}`
/// - `GET /api/v1/stream` (same filters) → server-sent events, `data: <record>` per record, live
/// - `GET /api/v1/expect` (same filters, `where=`, `count=`/`at_least=`/`none=true`) → `{"met", "matching", "closest",
///   "message", …}` (``ExpectRoute``, ``ExpectationReport``)
/// - `GET /api/v1/stats`; `GET|DELETE /api/v1/devices`, `PUT|DELETE /api/v1/devices/{token}`
/// - `GET /api/v1/devices/{token}/screen?at=`, `GET …/timeline?until=`, `POST …/changes`: virtual devices over time
/// - `GET /api/v1/delivery-log/{apns-unique-id}?until=`: one push's states in the Push Notifications Console's words
/// - `GET|POST|DELETE /api/v1/faults`, `DELETE /api/v1/faults/{id}`; `GET /metrics`; `GET /healthz`
/// - `GET /api/v1/ca.pem`: the CA senders verify the APNs endpoint with (with `/healthz`, open without the token)
/// - `GET /api/v1/search?q=&before=&limit=` (the search grammar of ``SearchQuery``, memory then record file, or the
///   shared store)
/// - `GET /api/v1/notifications/{seq}/delivery?state=&authorization=&in_app_routing=` (``DeliverySimulator``)
/// - `POST /api/v1/test-push` (with a ``TestPushSender``), `POST /api/v1/lint`
/// - `/api/v1/fcm/…`: the FCM front door's projects, registrations and records (``FCMRoutes``), an expectation of
///   those records (``FCMExpectRoute``), and the virtual Android devices (``FCMAndroidDeviceRoutes``)
/// - `GET /` and `GET /dashboard/{file}`: the web dashboard (unless ``ControlConfiguration/dashboard`` is false)
public final class ControlServer: Service, Sendable {
    /// Where it listens and the optional bearer token.
    public let configuration: ControlConfiguration
    private let mock: Mock
    private let logger: Logger
    /// The current run: its bound port once listening (nil before and after), and how waiters learn it.
    private let current = Locked<(listening: Readiness<Int>, port: Int?)>((Readiness<Int>(), nil))
    /// The group ``start()`` runs it in, while it runs.
    private let ownGroup = Locked<BackgroundServiceGroup?>(nil)
    private let streams: LiveStreams
    private let metrics: RequestMetrics
    private let testPushSender: TestPushSender?
    private let reader: RecordReader
    /// The CA senders trust, read once here (``CertificateAuthorityRoute``).
    private let certificateAuthorityPEM: [UInt8]?
    /// The FCM front door `/api/v1/fcm/…` steers (`serve --fcm`), if there is one.
    private let fcm: FCMFrontDoor?

    /// Makes a control plane for `mock`; nothing listens until ``start()``. `certificateAuthorityPath` is the CA
    /// (PEM file) senders verify the mock's APNs listener with, served at `/api/v1/ca.pem` (nil: 404 there).
    /// `testPushSender` backs the dashboard's "send a test push" form (absent: the form answers 404).
    /// `sharedRecords` (with `serve --store`: the shared store, over a connection of its own) is what the record
    /// routes, search, stats and the live stream read, so they show every instance's records; without it they read
    /// `mock`'s recorder.
    public init(mock: Mock, certificateAuthorityPath: String? = nil, configuration: ControlConfiguration = ControlConfiguration(), logger: Logger = Logger(label: "mockapns.control"),
                testPushSender: TestPushSender? = nil, sharedRecords: (any RecordStore)? = nil, fcm: FCMFrontDoor? = nil) {
        self.mock = mock
        self.fcm = fcm
        reader = RecordReader(recorder: mock.recorder, store: sharedRecords)
        self.testPushSender = testPushSender
        certificateAuthorityPEM = certificateAuthorityPath.flatMap { FileManager.default.contents(atPath: $0) }.map(Array.init)
        self.configuration = configuration
        self.logger = logger
        self.streams = LiveStreams(recorder: mock.recorder, heartbeatInterval: configuration.streamHeartbeat)
        self.metrics = RequestMetrics(recorder: mock.recorder, openConnections: { mock.openConnections },
                                      relay: mock.relayStatistics, webhooks: mock.configuration.webhooks)
    }

    /// The bound port while listening, else nil.
    public var port: Int? { current.withLock { $0.port } }

    private var listening: Readiness<Int> { current.withLock { $0.listening } }

    /// Serves in a group of its own; returns the bound port (the chosen one when the configuration says 0). After
    /// ``stop()`` it may start again.
    ///
    /// Throws ``ControlServerError/tokenRequiredForNonLoopback(host:)`` for a non-loopback host
    /// without a token, and ``ControlServerError/couldNotListen(host:port:reason:)`` when binding fails.
    @discardableResult
    public func start() async throws(ControlServerError) -> Int {
        let listening = Readiness<Int>()
        let group = ownGroup.withLock { group -> BackgroundServiceGroup? in
            guard group == nil else { return nil }
            current.withLock { $0 = (listening, nil) }
            group = BackgroundServiceGroup([self], logger: logger)
            return group
        }
        guard let group else { throw .alreadyStarted }
        do {
            return try await listening.value()
        } catch {
            await group.stop()
            ownGroup.withLock { $0 = nil }
            throw (error as? ControlServerError) ?? .couldNotListen(host: configuration.host, port: configuration.port,
                                                                      reason: "\(error)")
        }
    }

    /// Ends live streams, stops listening and waits for the socket to close (what ``start()`` started). Safe to
    /// call twice.
    public func stop() async {
        let group = ownGroup.withLock { $0 }
        await group?.stop()
        ownGroup.withLock { if $0 === group { $0 = nil } }
    }

    /// Returns once the control plane is bound (with its port), or throws why it could not bind.
    @discardableResult
    public func waitUntilListening() async throws -> Int {
        try await listening.value()
    }

    /// Serves until its group shuts down: live streams end first (so their connections can close), then
    /// Hummingbird's server stops gracefully. A bind that fails fails the run with
    /// ``ControlServerError/couldNotListen(host:port:reason:)``.
    public func run() async throws {
        if !configuration.isLoopback, (configuration.controlToken ?? "").isEmpty {
            let refusal = ControlServerError.tokenRequiredForNonLoopback(host: configuration.host)
            listening.fail(refusal)
            throw refusal
        }
        let (host, port, logger, listening, current) = (configuration.host, configuration.port, self.logger, self.listening, self.current)
        defer { current.withLock { $0.port = nil } }
        let app = Application(
            responder: makeRouter().buildResponder(),
            configuration: ApplicationConfiguration(address: .hostname(host, port: port), serverName: nil),
            onServerRunning: { channel in
                let bound = channel.localAddress?.port ?? port
                logger.info("control plane listening", metadata: ["url": "http://\(host):\(bound)"])
                current.withLock { $0.port = bound }
                listening.succeed(bound)
            },
            logger: logger)
        let streams = self.streams
        do {
            try await withGracefulShutdownHandler {
                try await app.run()
            } onGracefulShutdown: {
                streams.closeAll()
            }
        } catch {
            guard listening.current == nil else { throw error }
            let failure = ControlServerError.couldNotListen(host: host, port: port, reason: ControlServerError.sentence(for: error))
            listening.fail(failure)
            throw failure
        }
        streams.closeAll()
        listening.fail(ControlServerError.couldNotListen(host: host, port: port, reason: "it stopped before it was listening"))
    }

    /// Every route, behind the JSON error, browser guard (``BrowserRequestPolicy``) and (when configured)
    /// bearer token middleware.
    func makeRouter() -> Router<ControlRequestContext> {
        let router = Router(context: ControlRequestContext.self)
        router.add(middleware: JSONErrorMiddleware())
        let token = configuration.controlToken.flatMap { $0.isEmpty ? nil : $0 }
        router.add(middleware: BrowserGuardMiddleware(policy: BrowserRequestPolicy(requiresLoopbackHost: token == nil)))
        if let token {
            let dashboard = configuration.dashboard
            // The health check and the CA hold nothing secret, and a container's health probe or a sender in another
            // container needs them before it has the token.
            router.add(middleware: BearerTokenMiddleware(token: token, isPublic: { request in
                request.uri.path == HealthRoute.path || CertificateAuthorityRoute.paths.contains(request.uri.path)
                    || (dashboard && DashboardRoutes.isStaticAsset(request))
            }))
        }
        NotificationRoutes(reader: reader, streams: streams, webhooks: mock.configuration.webhooks).register(on: router)
        ExpectRoute(reader: reader).register(on: router)
        StatsRoute(reader: reader, relay: mock.relayStatistics,
                   webhooks: mock.configuration.webhooks).register(on: router)
        DeviceRoutes(mock: mock).register(on: router)
        DeviceScreenRoutes(reader: reader, mock: mock).register(on: router)
        FaultRoutes(mock: mock).register(on: router)
        MetricsRoute(metrics: metrics).register(on: router)
        HealthRoute().register(on: router)
        CertificateAuthorityRoute(pem: certificateAuthorityPEM).register(on: router)
        OpenAPIRoute().register(on: router)
        SearchRoute(reader: reader).register(on: router)
        DeliveryRoute(reader: reader).register(on: router)
        DeliveryLogRoute(reader: reader, changes: mock.deviceChanges, clock: mock.clock)
            .register(on: router)
        TestPushRoute(sender: testPushSender).register(on: router)
        FCMRoutes(frontDoor: fcm).register(on: router)
        FCMExpectRoute(frontDoor: fcm).register(on: router)
        FCMAndroidDeviceRoutes(frontDoor: fcm).register(on: router)
        if configuration.dashboard { DashboardRoutes().register(on: router) }
        return router
    }
}
