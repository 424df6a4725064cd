/// Where the control plane listens and who may talk to it.
///
/// The defaults suit a developer machine: loopback only, port 2198, no token. Binding to any other
/// address requires a ``controlToken``; ``ControlServer/start()`` refuses otherwise.
public struct ControlConfiguration: Sendable, Equatable {
    /// The address to bind: an IPv4/IPv6 literal or a host name. Default `127.0.0.1`.
    public var host: String
    /// The TCP port; 0 picks a free one (read it from ``ControlServer/start()``'s result). Default 2198.
    public var port: Int
    /// When set, every request must carry `authorization: Bearer <token>` (401 otherwise).
    public var controlToken: String?

    /// How often `/api/v1/stream` writes a `: keep-alive` comment on an idle stream. Default 15 s.
    public var streamHeartbeat: Duration

    /// Whether `/` serves the web dashboard. Default true.
    public var dashboard: Bool = true

    /// The default control port, 2198.
    public static let defaultPort = 2198

    /// Makes a configuration; every argument has the documented default.
    public init(
        host: String = "127.0.0.1", port: Int = ControlConfiguration.defaultPort, controlToken: String? = nil,
        streamHeartbeat: Duration = .seconds(15)
    ) {
        self.host = host
        self.port = port
        self.controlToken = controlToken
        self.streamHeartbeat = streamHeartbeat
    }

    /// This configuration with ``dashboard`` set to `enabled`.
    public func withDashboard(_ enabled: Bool) -> ControlConfiguration {
        var copy = self
        copy.dashboard = enabled
        return copy
    }

    /// True when ``host`` names a loopback address (`127.0.0.0/8`, `::1`, `localhost`).
    public var isLoopback: Bool { LoopbackAddress.isLoopback(host) }
}
