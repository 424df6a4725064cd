import NIOCore
import Support

/// The HTTP/1.1 endpoint's open connections. On SwiftNIO's shared loops, stopping the endpoint cannot stop the loops
/// to close what is open on them, so it closes each connection it accepted; once closed, it refuses new ones (a
/// connection accepted just before the listener closed).
final class HTTP1Connections: Sendable {
    private struct State {
        var open: [ObjectIdentifier: any Channel] = [:]
        var closed = false
    }

    private let state = Locked(State())

    /// Adds `channel`, to be forgotten when it closes; false once ``closeAll()`` ran or `limit` connections are open
    /// (then the caller closes it), so a client opening connections in a loop cannot grow the endpoint's memory.
    func add(_ channel: any Channel, limit: Int) -> Bool {
        let key = ObjectIdentifier(channel)
        let added = state.withLock { state in
            if state.closed || state.open.count >= limit { return false }
            state.open[key] = channel
            return true
        }
        if added {
            channel.closeFuture.whenComplete { [self] _ in
                state.withLock { _ = $0.open.removeValue(forKey: key) }
            }
        }
        return added
    }

    /// Closes every open connection (a request still arriving included) and refuses new ones.
    func closeAll() async {
        let open = state.withLock { state in
            state.closed = true
            return Array(state.open.values)
        }
        for channel in open { try? await channel.close() }
    }
}
