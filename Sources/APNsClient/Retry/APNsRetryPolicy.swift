import Support
import APNsModel

/// How often and how patiently a push is retried when APNs says "later" (429, 500, 503) or the
/// connection is lost before an answer. Delays grow exponentially with random jitter.
public struct APNsRetryPolicy: Sendable, Hashable {
    /// Attempts in total, the first one included (1 = never retry).
    public var maxAttempts: Int
    /// The delay before the first retry; each further retry doubles it.
    public var baseDelay: Duration
    /// The longest delay between two attempts.
    public var maxDelay: Duration

    /// Creates a policy (default: 4 attempts, 100 ms doubling up to 5 s).
    public init(maxAttempts: Int = 4, baseDelay: Duration = .milliseconds(100), maxDelay: Duration = .seconds(5)) {
        self.maxAttempts = max(1, maxAttempts)
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
    }

    /// A policy that never retries.
    public static let never = APNsRetryPolicy(maxAttempts: 1)

    /// The delay before attempt `attempt + 1`, after `attempt` failed (1-based): `baseDelay · 2^(attempt-1)`,
    /// capped at `maxDelay`, scaled by `jitter` (a factor in 0.5...1, random by default).
    public func delay(afterAttempt attempt: Int, jitter: Double = Double.random(in: 0.5...1)) -> Duration {
        ExponentialBackoff(first: baseDelay, cap: maxDelay).delay(afterFailures: attempt, jitter: jitter)
    }
}
