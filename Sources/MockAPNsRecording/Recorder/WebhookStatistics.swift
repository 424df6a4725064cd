import Support

/// What one webhook (`serve --webhook URL`) did with the records it was given: delivered, attempts retried, records
/// given up on (failed), and records dropped unsent because its queue was full. Kept here, beside the recorder, so
/// `/metrics` and `/api/v1/stats` show them without linking the HTTP client that delivers.
public final class WebhookStatistics: Sendable {
    /// The webhook's label in metrics and stats: its position among the `--webhook` flags (from 0) and its URL
    /// without credentials.
    public let index: Int
    /// The receiver's URL as shown (user and password removed).
    public let target: String
    private let counts = Locked<(delivered: Int, retried: Int, failed: Int, dropped: Int)>((0, 0, 0, 0))
    private let log = Locked(DeliveryLog())

    /// What happened to one record, for the dashboard's detail view.
    public enum DeliveryState: Sendable, Equatable {
        /// Being posted (attempt `n`, retried with back-off after the first).
        case sending(attempt: Int)
        /// The receiver took it after `attempts` attempts.
        case delivered(attempts: Int)
        /// Given up on: why.
        case failed(String)
        /// Passed over because the queue was full, or stopped at shutdown.
        case dropped
        /// Not for this webhook (`--webhook-match`).
        case notMatched
    }

    /// The states of the newest ``DeliveryLog/capacity`` records this webhook handled, and the last one handled.
    private struct DeliveryLog {
        static let capacity = 10_000
        var states: [UInt64: DeliveryState] = [:]
        var order: [UInt64] = []
        var head = 0
        var handledThrough: UInt64 = 0

        mutating func set(_ state: DeliveryState, seq: UInt64) {
            if states.updateValue(state, forKey: seq) == nil {
                if order.count < Self.capacity {
                    order.append(seq)
                } else {
                    states[order[head]] = nil
                    order[head] = seq
                    head = (head + 1) % Self.capacity
                }
            }
            handledThrough = max(handledThrough, seq)
        }
    }

    /// Counters for the webhook at `index` posting to `target` (already without credentials).
    public init(index: Int, target: String) {
        self.index = index
        self.target = target
    }

    /// Records delivered (the receiver answered 2xx).
    public var delivered: Int { counts.withLock { $0.delivered } }
    /// Attempts that failed and were tried again.
    public var retried: Int { counts.withLock { $0.retried } }
    /// Records given up on (a 4xx other than 429, or every attempt failed).
    public var failed: Int { counts.withLock { $0.failed } }
    /// Records dropped unsent: the queue was full, so the oldest went.
    public var dropped: Int { counts.withLock { $0.dropped } }

    /// Notes what happened to the record numbered `seq` (the newest 10 000 are kept).
    public func note(_ state: DeliveryState, seq: UInt64) {
        log.withLock { $0.set(state, seq: seq) }
    }

    /// What happened to the record numbered `seq`: its state while it is among the newest kept; nil when it is
    /// still waiting (numbered after every record handled) or too old to be kept.
    public func state(seq: UInt64) -> DeliveryState? {
        log.withLock { $0.states[seq] }
    }

    /// Whether the record numbered `seq` has not been reached yet.
    public func isWaiting(seq: UInt64) -> Bool {
        log.withLock { seq > $0.handledThrough }
    }

    /// Counts a delivered record.
    public func countDelivered() { counts.withLock { $0.delivered += 1 } }
    /// Counts an attempt that will be tried again.
    public func countRetried() { counts.withLock { $0.retried += 1 } }
    /// Counts a record given up on.
    public func countFailed() { counts.withLock { $0.failed += 1 } }
    /// Counts records dropped from a full queue.
    public func countDropped(_ records: Int) { counts.withLock { $0.dropped += max(0, records) } }
}
