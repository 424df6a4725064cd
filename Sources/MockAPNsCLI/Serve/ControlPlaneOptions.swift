import ArgumentParser
import Logging
import MockAPNs
import MockAPNsControl
import MockAPNsHTTP1
import MockAPNsHTTP2

/// The control-plane flags of `mockapns serve` (`@OptionGroup var control: ControlPlaneOptions`), each
/// with its `MOCKAPNS_<NAME>` fallback:
///
/// - `--control-host` (127.0.0.1), `--control-port` (2198; 0 = any free port), `--no-control`;
/// - `--control-token SECRET`: every control request needs `authorization: Bearer SECRET`
///   (required when the host is not loopback);
/// - `--no-dashboard`: no web dashboard at the control plane's `/`;
/// - `--http1-port` (off unless given) and `--http1-host` (127.0.0.1): the plain HTTP/1.1 APNs endpoint.
struct ControlPlaneOptions: ParsableArguments {
    @Option(name: .customLong("control-host"), help: ArgumentHelp("Control-plane address (default 127.0.0.1; any other needs --control-token).", valueName: "host"))
    var controlHost: String?

    @Option(name: .customLong("control-port"), help: ArgumentHelp("Control-plane port (default 2198; 0 picks a free port).", valueName: "port"))
    var controlPort: Int?

    @Option(name: .customLong("control-token"), help: ArgumentHelp("Require 'authorization: Bearer <token>' on every control request.", valueName: "token"))
    var controlToken: String?

    @Flag(name: .customLong("no-control"), help: "Do not start the control plane (list/show/tail then need --file).")
    var noControl = false

    @Flag(name: .customLong("no-dashboard"), help: "Do not serve the web dashboard at the control plane's /.")
    var noDashboard = false

    @Option(name: .customLong("http1-port"), help: ArgumentHelp("Also accept APNs requests over plain HTTP/1.1 on this port (0 = any free port).", valueName: "port"))
    var http1Port: Int?

    @Option(name: .customLong("http1-host"), help: ArgumentHelp("Address of the HTTP/1.1 APNs endpoint (default 127.0.0.1).", valueName: "host"))
    var http1Host: String?

    /// The control-plane configuration, or nil with `--no-control`. With `freePort` (serve's `--port 0`: no fixed
    /// ports, so two mocks can run side by side) the control plane takes a free port unless one is given.
    func controlConfiguration(environment: EnvironmentOptions, freePort: Bool = false) throws -> ControlConfiguration? {
        if noControl || environment.bool("NO_CONTROL") { return nil }
        let port = try controlPort ?? environment.int("CONTROL_PORT") ?? (freePort ? 0 : ControlConfiguration.defaultPort)
        try Self.check(port: port, flag: "--control-port")
        return ControlConfiguration(
            host: controlHost ?? environment["CONTROL_HOST"] ?? "127.0.0.1",
            port: port,
            controlToken: controlToken ?? environment["CONTROL_TOKEN"]
        ).withDashboard(!(noDashboard || environment.bool("NO_DASHBOARD")))
    }

    /// Starts the control plane and the HTTP/1.1 endpoint as asked for (after `server.start()`).
    /// Throws ``ControlServerError`` (non-loopback without a token, port in use) with a sentence to print.
    /// The default logger only reports warnings: `serve` prints the URLs itself.
    /// `sharedRecords` (with `--store`) is what the record routes and the dashboard read.
    func start(mock: Mock, server: MockAPNsServer, sharedRecords: (any RecordStore)? = nil,
               logger: Logger = ControlPlaneOptions.quietLogger) async throws -> RunningControlPlane {
        let environment = EnvironmentOptions()
        var running = RunningControlPlane()
        if let configuration = try controlConfiguration(environment: environment, freePort: server.configuration.port == 0) {
            let control = ControlServer(mock: mock, certificateAuthorityPath: server.certificateAuthorityPath,
                                        configuration: configuration, logger: logger,
                                        testPushSender: DashboardTestPushSender.make(for: server), sharedRecords: sharedRecords)
            let port: Int
            do {
                port = try await control.start()
            } catch {
                guard case .couldNotListen(_, _, let reason) = error else { throw error }
                throw ListenerStartFailure(listener: "the control plane", reason: reason,
                                           remedy: "--control-port (0 picks a free port) or pass --no-control")
            }
            running.control = control
            running.controlURL = Self.url(host: configuration.host, port: port)
            if configuration.dashboard { running.dashboardURL = Self.url(host: configuration.host, port: port) + "/" }
        }
        if let port = try http1Port ?? environment.int("HTTP1_PORT") {
            try Self.check(port: port, flag: "--http1-port")
            let host = http1Host ?? environment["HTTP1_HOST"] ?? "127.0.0.1"
            // The HTTP/2 listener's loops: SwiftNIO's shared ones, or with `--loops` as many of its own.
            let configuration = APNsHTTP1Configuration(
                host: host, port: port, eventLoopThreads: server.configuration.loopCount,
                maxBodyBytes: server.configuration.maxBodyBytes)
            let endpoint = APNsHTTP1Server(mock: mock, configuration: configuration, logger: logger)
            do {
                let bound = try await endpoint.start()
                running.http1 = endpoint
                running.http1URL = Self.url(host: host, port: bound)
            } catch {
                await running.stop()
                if case .couldNotListen(_, _, let reason) = error {
                    throw ListenerStartFailure(listener: "the HTTP/1.1 endpoint", reason: reason, remedy: "--http1-port (0 picks a free port)")
                }
                throw error
            }
        }
        return running
    }

    /// `mockapns.control` at warning level.
    static var quietLogger: Logger {
        var logger = Logger(label: "mockapns.control")
        logger.logLevel = .warning
        return logger
    }

    private static func check(port: Int, flag: String) throws {
        guard (0...65535).contains(port) else { throw ValidationError("\(flag) must be between 0 and 65535, got \(port)") }
    }

    /// `http://host:port`, with brackets around IPv6 literals.
    static func url(host: String, port: Int) -> String {
        let shown = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        return "http://\(shown):\(port)"
    }
}

/// What ``ControlPlaneOptions/start(mock:server:sharedRecords:logger:)`` started; `stop()` before the mock's `shutdown()`.
struct RunningControlPlane: Sendable {
    /// The control plane, unless `--no-control`.
    var control: ControlServer?
    /// Its URL for the ready file's `control_url`.
    var controlURL: String?
    /// The dashboard's URL for the ready file's `dashboard_url`, unless `--no-dashboard` or `--no-control`.
    var dashboardURL: String?
    /// The HTTP/1.1 APNs endpoint, when `--http1-port` was given.
    var http1: APNsHTTP1Server?
    /// Its URL for the ready file's `http1_url`.
    var http1URL: String?

    /// Stops both (open event streams end first).
    func stop() async {
        await control?.stop()
        await http1?.stop()
    }
}
