import Support
import APNsModel
import Foundation

/// How long a webhook waits before trying a record again: exponential back-off with full jitter (a random wait up to
/// `base × 2^(attempt-1)`, capped), so receivers coming back from an outage are not hit by every mock at once; a
/// `Retry-After` from the receiver (seconds or an HTTP date) wins, capped at ``maxRetryAfter``.
public struct WebhookBackoff: Sendable {
    /// The first attempt's ceiling.
    public var base: Duration = .milliseconds(500)
    /// The largest ceiling.
    public var cap: Duration = .seconds(30)
    /// The longest `Retry-After` honoured.
    public static let maxRetryAfter: Duration = .seconds(300)

    /// The defaults: 0.5 s doubling to 30 s.
    public init() {}

    /// The wait before attempt `attempt + 1`, after `attempt` failed ones (from 1).
    public func delay(afterAttempt attempt: Int, random: Double = Double.random(in: 0...1)) -> Duration {
        ExponentialBackoff(first: base, cap: cap).delay(afterFailures: attempt, jitter: random)
    }

    /// The wait a `Retry-After` value asks for: delay-seconds or an HTTP date; nil when absent or unreadable.
    public static func retryAfter(_ value: String?, now: Date = Date()) -> Duration? {
        guard let value = value?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        if let seconds = Int(value) {
            guard seconds >= 0 else { return nil }
            return min(.seconds(seconds), maxRetryAfter)
        }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = formatter.date(from: value) else { return nil }
        let seconds = max(0, date.timeIntervalSince(now))
        return min(.milliseconds(Int64(seconds * 1000)), maxRetryAfter)
    }
}
