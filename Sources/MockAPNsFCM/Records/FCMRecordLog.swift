import Support

/// The FCM records in memory: the newest ``limit``, numbered from 1. Bounded: the oldest go first.
public final class FCMRecordLog: Sendable {
    private struct State {
        var records: [FCMRecord] = []
        /// Index of the oldest record once the ring is full.
        var start = 0
        var lastSequence: UInt64 = 0
    }
    private let state = Locked(State())
    /// Records kept.
    public let limit: Int

    /// An empty log keeping `limit` records.
    public init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// Numbers `record` and keeps it; returns its sequence.
    @discardableResult
    public func append(_ record: consuming FCMRecord) -> UInt64 {
        // Moved into the ring, not copied: a record holds the message's trees.
        var numbered = record
        return state.withLock { state in
            state.lastSequence &+= 1
            numbered.sequence = state.lastSequence
            if state.records.count < limit {
                state.records.append(numbered)
            } else {
                state.records[state.start] = numbered
                state.start = (state.start + 1) % limit
            }
            return state.lastSequence
        }
    }

    /// The next sequence number `append` will give.
    public var nextSequence: UInt64 { state.withLock { $0.lastSequence &+ 1 } }

    /// The records, oldest first, that pass `filter`; the newest `limit` of them.
    public func records(limit: Int = .max, where filter: (FCMRecord) -> Bool = { _ in true }) -> [FCMRecord] {
        let all = state.withLock { state in Array(state.records[state.start...] + state.records[..<state.start]) }
        let kept = all.filter(filter)
        return kept.count > limit ? Array(kept.suffix(limit)) : kept
    }

    /// Forgets every record; returns how many there were.
    @discardableResult
    public func removeAll() -> Int {
        state.withLock { state in
            let count = state.records.count
            state.records.removeAll()
            state.start = 0
            return count
        }
    }
}
