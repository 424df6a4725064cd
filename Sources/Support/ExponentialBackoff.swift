/// The package's one back-off rule: the wait after the `n`th failed attempt is `first · 2ⁿ⁻¹`, capped at `cap`, and
/// scaled by a jitter factor in 0...1 so that clients failing together do not retry together.
///
/// Used by the client's retries of a push (`APNsRetryPolicy`), its connection pool's reconnects (`ConnectBackoff`)
/// and the webhooks' redeliveries (`WebhookBackoff`), which differ only in their numbers and jitter ranges.
package struct ExponentialBackoff: Sendable, Hashable {
    /// The wait after the first failure, before jitter.
    package var first: Duration
    /// The longest wait, before jitter.
    package var cap: Duration

    /// A back-off from `first`, doubling up to `cap`.
    package init(first: Duration, cap: Duration) {
        self.first = first
        self.cap = cap
    }

    /// The wait after `failures` failed attempts (from 1; less counts as 1): `first · 2^(failures-1)`, capped at
    /// `cap`, times `jitter` clamped to 0...1. The doubling stops after 30 steps, so no count overflows.
    package func delay(afterFailures failures: Int, jitter: Double) -> Duration {
        let doublings = min(max(failures - 1, 0), 30)
        let grown = first * (1 << doublings)
        return (grown > cap ? cap : grown) * min(max(jitter, 0), 1)
    }
}
