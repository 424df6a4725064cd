import HTTP2
import NIOCore
import NIOTLS

/// Another server's host names on one of the APNs listener's ports, told apart by the server name of each TLS
/// ClientHello: Apple's and Google's names both on 443 (`--apple-hosts` beside `--fcm`), as a sender that has both
/// built in calls them. A connection whose ClientHello names one of ``names`` goes to ``adopt``; any other, and one
/// that names no server, stays the APNs listener's, which then ends TLS as on any of its ports.
///
/// Only the shared port looks at ClientHellos: the listener's other ports serve each connection at once.
public struct SharedPort: Sendable {
    /// The port as configured (Apple's HTTPS port, 443 unless `--apple-https-port` moves it).
    public var port: Int
    /// The other server's names, lowercase.
    public var names: Set<String>
    /// Takes a connection that named one of ``names``, on its loop, with its ClientHello still to be read.
    public var adopt: @Sendable (any Channel) -> EventLoopFuture<Void>

    /// Connections whose ClientHello names one of `names` on `port` go to `adopt`.
    public init(port: Int, names: some Sequence<String>, adopt: @escaping @Sendable (any Channel) -> EventLoopFuture<Void>) {
        self.port = port
        self.names = Set(names.map { $0.lowercased() })
        self.adopt = adopt
    }

    /// How long a connection may take to send its ClientHello; the server's own handshake timeout starts once the
    /// connection is chosen.
    static let helloTimeout = TimeAmount.seconds(10)

    /// Reads `channel`'s ClientHello (NIO's `SNIHandler` buffers it and hands it on unchanged) and gives the
    /// connection to ``adopt`` or to `intake`.
    func route(_ channel: any Channel, intake: HTTP2ConnectionIntake) -> EventLoopFuture<Void> {
        let (names, adopt) = (self.names, self.adopt)
        return channel.eventLoop.makeCompletedFuture {
            let timeout = channel.eventLoop.assumeIsolated().scheduleTask(in: Self.helloTimeout) { channel.close(promise: nil) }
            try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(SNIHandler { result in
                timeout.cancel()
                if case .hostname(let name) = result, names.contains(Self.normalized(name)) { return adopt(channel) }
                return channel.eventLoop.makeCompletedFuture { try intake.serve(channel) }
            }))
        }
    }

    /// `name` lowercase and without the trailing dot of a fully qualified name.
    static func normalized(_ name: String) -> String {
        let lower = name.lowercased()
        return lower.hasSuffix(".") ? String(lower.dropLast()) : lower
    }
}
