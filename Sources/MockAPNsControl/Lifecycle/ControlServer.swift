import DeviceSimulation
import Foundation
import Hummingbird
import Logging
import MockAPNs

/// The control plane: an HTTP/1.1 JSON API over a ``Mock`` — its recording, device registry and fault plan — plus
/// a live event stream, Prometheus `/metrics` and `/healthz`. It knows no transport: whichever listeners serve the
/// mock, it reads and steers the same state.
///
/// ```swift
/// let control = ControlServer(mock: mock, configuration: .init(port: 0))
/// let port = try await control.start()   // serving now
/// …
/// await control.stop()
/// ```
///
/// Web pages other than its own are kept out (``BrowserRequestPolicy``): without a token, requests must be
/// addressed to a loopback name, and a request carrying another site's `Origin` is refused with 403.
///
/// Routes (JSON; errors are `{"error": "…"}` with 400, 401, 403 or 404):
/// - `GET /api/v1/notifications?token=&topic=&push_type=&status=&reason=&since=&limit=` → `{"notifications": [record…]}`
/// - `GET /api/v1/notifications/{seq or apns-id}` → one record; `DELETE /api/v1/notifications` → `{"cleared": n}`
/// - `GET /api/v1/stream` (same filters) → server-sent events, `data: <record>` per record, live
/// - `GET /api/v1/stats`; `GET|DELETE /api/v1/devices`, `PUT|DELETE /api/v1/devices/{token}`
/// - `GET /api/v1/devices/{token}/screen?at=`, `GET …/timeline?until=`, `POST …/changes`: virtual devices over time
/// - `GET /api/v1/delivery-log/{apns-unique-id}?until=`: one push's states in the Push Notifications Console's words
/// - `GET|POST|DELETE /api/v1/faults`, `DELETE /api/v1/faults/{id}`; `GET /metrics`; `GET /healthz`
/// - `GET /api/v1/ca.pem`: the CA senders verify the APNs endpoint with (with `/healthz`, open without the token)
/// - `GET /api/v1/search?q=&before=&limit=` (the search grammar of ``SearchQuery``, memory then record file, or the
///   shared store)
/// - `GET /api/v1/notifications/{seq}/delivery?state=&authorization=&in_app_routing=` (``DeliverySimulator``)
/// - `POST /api/v1/test-push` (with a ``TestPushSender``), `POST /api/v1/lint`
/// - `GET /` and `GET /dashboard/{file}`: the web dashboard (unless ``ControlConfiguration/dashboard`` is false)
public final class ControlServer: Sendable {
    /// Where it listens and the optional bearer token.
    public let configuration: ControlConfiguration
    private let mock: Mock
    private let logger: Logger
    private let runner = HTTPServerRunner()
    private let streams: LiveStreams
    private let metrics: RequestMetrics
    private let testPushSender: TestPushSender?
    private let reader: RecordReader
    /// The CA senders trust, read once here (``CertificateAuthorityRoute``).
    private let certificateAuthorityPEM: [UInt8]?

    /// Makes a control plane for `mock`; nothing listens until ``start()``. `certificateAuthorityPath` is the CA
    /// (PEM file) senders verify the mock's APNs listener with, served at `/api/v1/ca.pem` (nil: 404 there).
    /// `testPushSender` backs the dashboard's "send a test push" form (absent: the form answers 404).
    /// `sharedRecords` (with `serve --store`: the shared store, over a connection of its own) is what the record
    /// routes, search, stats and the live stream read, so they show every instance's records; without it they read
    /// `mock`'s recorder.
    public init(mock: Mock, certificateAuthorityPath: String? = nil, configuration: ControlConfiguration = ControlConfiguration(), logger: Logger = Logger(label: "mockapns.control"),
                testPushSender: TestPushSender? = nil, sharedRecords: (any RecordStore)? = nil) {
        self.mock = mock
        reader = RecordReader(recorder: mock.recorder, store: sharedRecords)
        self.testPushSender = testPushSender
        certificateAuthorityPEM = certificateAuthorityPath.flatMap { FileManager.default.contents(atPath: $0) }.map(Array.init)
        self.configuration = configuration
        self.logger = logger
        self.streams = LiveStreams(recorder: mock.recorder, heartbeatInterval: configuration.streamHeartbeat)
        let pipeline = mock.pipeline
        self.metrics = RequestMetrics(recorder: mock.recorder, openConnections: { pipeline.openConnections },
                                      pipeline: mock.pipeline, webhooks: mock.configuration.webhooks)
    }

    /// The bound port while running, else nil.
    public var port: Int? { runner.port }

    /// Binds and serves; returns the bound port (the chosen one when the configuration says 0).
    ///
    /// Throws ``ControlServerError/tokenRequiredForNonLoopback(host:)`` for a non-loopback host
    /// without a token, and ``ControlServerError/couldNotListen(host:port:reason:)`` when binding fails.
    @discardableResult
    public func start() async throws(ControlServerError) -> Int {
        if !configuration.isLoopback, (configuration.controlToken ?? "").isEmpty {
            throw .tokenRequiredForNonLoopback(host: configuration.host)
        }
        guard runner.port == nil else { throw .alreadyStarted }
        let port = try await runner.start(
            responder: makeRouter().buildResponder(), host: configuration.host, port: configuration.port, logger: logger
        )
        logger.info("control plane listening", metadata: ["url": "http://\(configuration.host):\(port)"])
        return port
    }

    /// Ends live streams, stops listening and waits for the socket to close. Safe to call twice.
    public func stop() async {
        streams.closeAll()
        await runner.stop()
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
        StatsRoute(reader: reader, relay: mock.pipeline.relay == nil ? nil : mock.pipeline.relayStatistics,
                   webhooks: mock.configuration.webhooks).register(on: router)
        DeviceRoutes(devices: mock.devices, shared: mock.configuration.sharedState, changes: mock.deviceChanges,
                     clock: mock.pipeline.configuration.clock).register(on: router)
        DeviceScreenRoutes(reader: reader, changes: mock.deviceChanges, clock: mock.pipeline.configuration.clock,
                           shared: mock.configuration.sharedState)
            .register(on: router)
        FaultRoutes(faults: mock.faults, shared: mock.configuration.sharedState).register(on: router)
        MetricsRoute(metrics: metrics).register(on: router)
        HealthRoute().register(on: router)
        CertificateAuthorityRoute(pem: certificateAuthorityPEM).register(on: router)
        OpenAPIRoute().register(on: router)
        SearchRoute(reader: reader).register(on: router)
        DeliveryRoute(reader: reader).register(on: router)
        DeliveryLogRoute(reader: reader, changes: mock.deviceChanges, clock: mock.pipeline.configuration.clock)
            .register(on: router)
        TestPushRoute(sender: testPushSender).register(on: router)
        if configuration.dashboard { DashboardRoutes().register(on: router) }
        return router
    }
}
