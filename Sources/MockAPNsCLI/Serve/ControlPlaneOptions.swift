import ArgumentParser
import Logging
import ServiceLifecycle
import MockAPNs
import MockAPNsControl
import MockAPNsFCM
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

    /// The HTTP/1.1 APNs endpoint's listener, or nil without `--http1-port`: the HTTP/2 listener's loops and limits
    /// (`beside`), on its own address and port, without TLS.
    func http1Configuration(environment: EnvironmentOptions, beside listener: ListenerConfiguration) throws -> ListenerConfiguration? {
        guard let port = try http1Port ?? environment.int("HTTP1_PORT") else { return nil }
        try Self.check(port: port, flag: "--http1-port")
        var configuration = listener
        configuration.host = http1Host ?? environment["HTTP1_HOST"] ?? ListenerConfiguration.plainHTTP1.host
        configuration.port = port
        configuration.tls = nil
        configuration.appleHosts = nil
        return configuration
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

/// The control plane and the HTTP/1.1 endpoint of a ``MockDeployment``, each there when it asks for it, run as
/// services of `serve`'s group.
struct ControlPlaneListeners: Sendable {
    /// The control plane, unless `--no-control`.
    var control: ControlServer?
    /// Its address.
    var controlHost = "127.0.0.1"
    /// Whether it serves the dashboard.
    var dashboard = true
    /// The HTTP/1.1 APNs endpoint, when `--http1-port` was given.
    var http1: APNsHTTP1Listener?

    /// The listeners `deployment` asks for, as services that bind when their group runs them. `sharedRecords` (with
    /// `--store`) is what the record routes and the dashboard read. The logger only reports warnings by default:
    /// `serve` prints the URLs itself.
    init(mock: Mock, server: APNsHTTP2Listener, deployment: MockDeployment, sharedRecords: (any RecordStore)? = nil,
         fcm: FCMFrontDoor? = nil, logger: Logger = ControlPlaneOptions.quietLogger) throws {
        if let configuration = deployment.control {
            control = ControlServer(mock: mock, certificateAuthorityPath: server.certificateAuthorityPath,
                                    configuration: configuration, logger: logger,
                                    testPushSender: DashboardTestPushSender.make(for: server), sharedRecords: sharedRecords,
                                    fcm: fcm)
            controlHost = configuration.host
            dashboard = configuration.dashboard
        }
        if let configuration = deployment.http1 {
            http1 = try APNsHTTP1Listener(mock: mock, configuration: configuration, logger: logger)
        }
    }

    /// The services, in the group's order (the control plane stops first), each failing with the sentence that
    /// names the flag to change.
    var services: [any Service] {
        var services: [any Service] = []
        if let http1 {
            services.append(ServeListener(http1, name: "the HTTP/1.1 endpoint") { error in
                guard let error = error as? APNsHTTP1ListenerError, case .couldNotListen(_, _, let reason) = error else { return nil }
                return ListenerStartFailure(listener: "the HTTP/1.1 endpoint", reason: reason, remedy: "--http1-port (0 picks a free port)")
            })
        }
        if let control {
            services.append(ServeListener(control, name: "the control plane") { error in
                guard let error = error as? ControlServerError, case .couldNotListen(_, _, let reason) = error else { return nil }
                return ListenerStartFailure(listener: "the control plane", reason: reason,
                                            remedy: "--control-port (0 picks a free port) or pass --no-control")
            })
        }
        return services
    }

    /// The URLs for the ready file, once both listen: `control_url`, `dashboard_url`, `http1_url`.
    func urls() async throws -> (control: String?, dashboard: String?, http1: String?) {
        var urls: (control: String?, dashboard: String?, http1: String?) = (nil, nil, nil)
        if let control {
            let port = try await control.waitUntilListening()
            urls.control = ControlPlaneOptions.url(host: controlHost, port: port)
            if dashboard { urls.dashboard = ControlPlaneOptions.url(host: controlHost, port: port) + "/" }
        }
        if let http1 {
            urls.http1 = http1.configuration.url(port: try await http1.waitUntilListening())
        }
        return urls
    }
}
