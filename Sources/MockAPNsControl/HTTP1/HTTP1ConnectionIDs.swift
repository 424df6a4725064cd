import NIOCore
import Synchronized

/// Gives each HTTP/1.1 connection a number for the life of the endpoint, so records show which
/// requests shared a connection (as HTTP/2 records do).
final class HTTP1ConnectionIDs: Sendable {
    private let state: Locked<(next: UInt64, byChannel: [ObjectIdentifier: UInt64])>
    private let onClose: @Sendable (UInt64) -> Void

    /// Numbers start at `first`; `onClose` hears of each connection's end (the pipeline forgets its state).
    init(first: UInt64, onClose: @escaping @Sendable (UInt64) -> Void) {
        state = Locked((first, [:]))
        self.onClose = onClose
    }

    /// The number of `channel`'s connection, assigned on first sight and forgotten when it closes.
    func id(for channel: any Channel) -> UInt64 {
        let key = ObjectIdentifier(channel)
        let (id, isNew) = state.withLock { state -> (UInt64, Bool) in
            if let known = state.byChannel[key] { return (known, false) }
            let id = state.next
            state.next += 1
            state.byChannel[key] = id
            return (id, true)
        }
        if isNew {
            channel.closeFuture.whenComplete { [self] _ in
                _ = state.withLock { $0.byChannel.removeValue(forKey: key) }
                onClose(id)
            }
        }
        return id
    }
}
