import Support
import APNsClient
import HTTP2

/// The upstream clients of a relay that forwards its senders' own tokens: one client (one long-lived connection)
/// per provider token, the most recently used `limit` of them kept, all on one shared event loop.
///
/// APNs ties a token to the connection it arrives on and answers `429 TooManyProviderTokenUpdates` when a connection's
/// token changes more often than every 20 minutes, so the tokens of several senders (or of two runs of one sender)
/// cannot share a connection. Each token gets its own, as it would have between its sender and Apple; a sender's
/// token refreshed after 20–60 minutes gets a new one and the oldest idle client is closed.
final class ForwardingClients: Sendable {
    private struct Entry {
        var client: APNsClient
        var lastUse: UInt64
    }

    private let make: @Sendable () throws -> APNsClient
    private let limit: Int
    /// The event loops every client's connection runs on (shared: no thread per token), shut down last.
    private let loops: HTTP2ClientLoops
    private let state = Locked<(entries: [String: Entry], uses: UInt64)>(([:], 0))

    /// Clients made by `make` (each with its own connection, on `loops`), at most `limit` kept.
    init(limit: Int, loops: HTTP2ClientLoops, make: @escaping @Sendable () throws -> APNsClient) {
        self.limit = max(1, limit)
        self.loops = loops
        self.make = make
    }

    /// The client for pushes carrying `authorization`, made on first use; the least recently used one is closed
    /// (once its pushes in flight are answered) when more than `limit` tokens are in use.
    func client(for authorization: String) throws -> APNsClient {
        if let client = state.withLock({ state -> APNsClient? in
            state.uses += 1
            state.entries[authorization]?.lastUse = state.uses
            return state.entries[authorization]?.client
        }) {
            return client
        }
        let made = try make()
        let (client, evicted) = state.withLock { state -> (APNsClient, [APNsClient]) in
            state.uses += 1
            if let existing = state.entries[authorization] {   // another push made one meanwhile: use it
                return (existing.client, [made])
            }
            state.entries[authorization] = Entry(client: made, lastUse: state.uses)
            var evicted: [APNsClient] = []
            while state.entries.count > limit, let oldest = state.entries.min(by: { $0.value.lastUse < $1.value.lastUse }) {
                evicted.append(oldest.value.client)
                state.entries[oldest.key] = nil
            }
            return (made, evicted)
        }
        if !evicted.isEmpty {
            Task { for client in evicted { await client.shutdown() } }
        }
        return client
    }

    /// The clients in use now.
    var clients: [APNsClient] { state.withLock { $0.entries.values.map(\.client) } }

    /// Closes every client once its pushes in flight are answered.
    func shutdown() async {
        let all = state.withLock { state -> [APNsClient] in
            defer { state.entries = [:] }
            return state.entries.values.map(\.client)
        }
        for client in all { await client.shutdown() }
        await loops.shutdown()
    }
}
