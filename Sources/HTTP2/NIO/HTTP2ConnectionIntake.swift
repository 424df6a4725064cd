import NIOCore

/// How a ``HTTP2ServerConfiguration/connectionSetup`` hands an accepted connection to the server: once its own
/// handlers have decided the connection speaks HTTP/2 (a NIOSSL handler that negotiated `h2`, say), ``serve(_:)``
/// puts the server's driver at the end of the pipeline, and the bytes that reach it are one HTTP/2 connection of
/// this server (prior knowledge: the client's preface first), under its limits, timeouts and handler.
public struct HTTP2ConnectionIntake: Sendable {
    let loop: NIOConnectionLoop
    let role: NIOChannelDriver.Role

    init(loop: NIOConnectionLoop, role: NIOChannelDriver.Role) {
        self.loop = loop
        self.role = role
    }

    /// Serves `channel` (the accepted one, on its loop) as an HTTP/2 connection from here on.
    public func serve(_ channel: any Channel) throws {
        try channel.pipeline.syncOperations.addHandler(NIOChannelDriver(loop: loop, role: role))
    }
}
