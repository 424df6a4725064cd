import Hummingbird
import NIOCore

/// The per-request context of the FCM listener: Hummingbird's storage plus the channel, so a request knows its
/// sender's address and whether it came over HTTP/2: an accepted connection's parent is the listening socket, and an
/// HTTP/2 stream's parent is its connection, so only a stream has a grandparent.
struct FCMRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
    }

    /// `h2` or `http/1.1`.
    var transport: String { channel.parent?.parent == nil ? "http/1.1" : "h2" }

    /// `host:port` of the sender.
    var remote: String {
        let address = channel.remoteAddress ?? channel.parent?.remoteAddress
        guard let address, let ip = address.ipAddress else { return "unknown" }
        let port = address.port.map(String.init) ?? "0"
        return ip.contains(":") ? "[\(ip)]:\(port)" : "\(ip):\(port)"
    }
}
