import APNsClient
import Support

/// `mockapns send --give-up-after SECONDS`: watches the client's outage and, once the endpoint has been
/// unreachable that long, stops the run. A lost run then ends in seconds with its counts, instead of failing the
/// remaining pushes one timeout at a time (minutes, at a core's worth of CPU).
final class SendGiveUp: Sendable {
    /// How long the endpoint may stay unreachable before the run stops.
    let limit: Duration
    private let outage = Locked<APNsConnectFailure?>(nil)

    /// A watcher that gives up after `limit` of unreachability.
    init(limit: Duration) {
        self.limit = limit
    }

    /// The outage the run gave up on; nil while it goes on.
    var reason: APNsConnectFailure? { outage.withLock { $0 } }

    /// Polls each client's `outage` every 100 ms until cancelled; when one has lasted `limit`, records it and
    /// cancels `workers` (pushes waiting for a connection end at once, none is taken any more). With several URLs
    /// one endpoint down stops the run: its share of the pushes could not be sent.
    func watch(_ clients: [APNsClient], workers: Task<Void, Never>) async {
        while !Task.isCancelled {
            do { try await Task.sleep(for: .milliseconds(100)) } catch { return }
            guard let current = clients.lazy.compactMap(\.outage).first(where: { $0.elapsed >= limit }) else { continue }
            outage.withLock { $0 = current }
            workers.cancel()
            return
        }
    }
}
