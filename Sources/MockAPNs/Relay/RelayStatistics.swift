import Synchronization

/// Counts of the relay's work since start, for `/metrics` (`mockapns_relay_*`): read at scrape time.
public final class RelayStatistics: Sendable {
    private let relayedCount = Atomic<Int>(0)
    private let disagreementCount = Atomic<Int>(0)
    private let upstreamErrorCount = Atomic<Int>(0)

    /// Starts at zero.
    public init() {}

    /// Pushes sent upstream (answered or not).
    public var relayed: Int { relayedCount.load(ordering: .relaxed) }
    /// Relayed pushes whose upstream status or reason differed from the mock's own verdict.
    public var disagreements: Int { disagreementCount.load(ordering: .relaxed) }
    /// Relayed pushes the upstream did not answer (unreachable, TLS, timeout, connection lost, relay full).
    public var upstreamErrors: Int { upstreamErrorCount.load(ordering: .relaxed) }

    /// Counts one relayed push and what came of it.
    func count(_ verdict: RelayVerdict, disagreed: Bool) {
        relayedCount.add(1, ordering: .relaxed)
        if verdict.error != nil { upstreamErrorCount.add(1, ordering: .relaxed) }
        if disagreed { disagreementCount.add(1, ordering: .relaxed) }
    }
}
