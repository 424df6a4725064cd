import Synchronization

/// What one webhook (`serve --webhook URL`) did with the records it was given: delivered, attempts retried, records
/// given up on (failed), and records dropped unsent because its queue was full. Kept here, beside the recorder, so
/// `/metrics` and `/api/v1/stats` show them without linking the HTTP client that delivers.
public final class WebhookStatistics: Sendable {
    /// The webhook's label in metrics and stats: its position among the `--webhook` flags (from 0) and its URL
    /// without credentials.
    public let index: Int
    /// The receiver's URL as shown (user and password removed).
    public let target: String
    private let counts = Mutex<(delivered: Int, retried: Int, failed: Int, dropped: Int)>((0, 0, 0, 0))

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

    /// Counts a delivered record.
    public func countDelivered() { counts.withLock { $0.delivered += 1 } }
    /// Counts an attempt that will be tried again.
    public func countRetried() { counts.withLock { $0.retried += 1 } }
    /// Counts a record given up on.
    public func countFailed() { counts.withLock { $0.failed += 1 } }
    /// Counts records dropped from a full queue.
    public func countDropped(_ records: Int) { counts.withLock { $0.dropped += max(0, records) } }
}
