import NIOCore

/// How a ``HTTP2ServerConfiguration/connectionSetup`` hands an accepted connection to a server: once its own
/// handlers have decided the connection is the server's (a NIOSSL handler that negotiated `h2`, or a ClientHello
/// naming one of its hosts), ``serve(_:)`` puts the server's driver at the end of the pipeline, and the bytes that
/// reach it are one connection of this server (TLS when the server has its own, else HTTP/2 with prior knowledge),
/// under its limits, timeouts and handler.
public struct HTTP2ConnectionIntake: Sendable {
    let loop: NIOConnectionLoop
    let role: NIOChannelDriver.Role

    /// Which of the server's ports accepted the connection: 0 for `port`, then `extraPorts` in order.
    public var listener: Int {
        if case let .server(_, _, listener) = role { return listener }
        return 0
    }

    init(loop: NIOConnectionLoop, role: NIOChannelDriver.Role) {
        self.loop = loop
        self.role = role
    }

    /// Serves `channel` (the accepted one, on its loop) as an HTTP/2 connection from here on.
    public func serve(_ channel: any Channel) throws {
        try channel.pipeline.syncOperations.addHandler(NIOChannelDriver(loop: loop, role: role))
    }
}
