import Hummingbird
import NIOCore

/// The per-request context of the control plane and the HTTP/1.1 APNs endpoint: Hummingbird's core
/// storage plus the channel, so handlers can tell the peer's address and connection.
public struct ControlRequestContext: RequestContext, RemoteAddressRequestContext {
    /// Hummingbird's per-request storage (route parameters, logger…).
    public var coreContext: CoreRequestContextStorage
    /// The connection the request came on.
    public let channel: any Channel

    /// The peer's address.
    public var remoteAddress: SocketAddress? { channel.remoteAddress }

    /// Makes a context for a request on `source.channel`.
    public init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.channel = source.channel
    }
}
