import Support
import APNsModel
import Foundation
import HTTP2

/// The pool's one record of failed connection attempts, shared by every push waiting on it: when the next attempt
/// may start (exponential back-off with jitter, 100 ms doubling to at most 30 s) and the outage so far. A
/// successful connect resets it. Without it every waiting push would dial on its own: a reconnect storm that gets
/// a provider throttled by APNs and burns CPU against a dead host.
struct ConnectBackoff: Sendable {
    /// The delay after the first failed attempt.
    static let firstDelay = Duration.milliseconds(100)
    /// The longest delay between two attempts.
    static let maxDelay = Duration.seconds(30)

    /// Failed attempts since the last successful connect.
    private(set) var failures = 0
    /// When the next attempt may start; nil = at once.
    private(set) var nextAttempt: ContinuousClock.Instant?
    /// When the first failed attempt of this outage started.
    private(set) var outageStart: ContinuousClock.Instant?
    /// The last failed attempt's cause.
    private(set) var lastCause: String?

    /// Records a failed attempt that started at `started` and failed at `now`; `jitter` (0.5...1) scales the delay.
    mutating func failed(cause: String, started: ContinuousClock.Instant, now: ContinuousClock.Instant,
                         jitter: Double = Double.random(in: 0.5...1)) {
        failures += 1
        if outageStart == nil { outageStart = started }
        lastCause = cause
        nextAttempt = now + Self.delay(afterFailures: failures, jitter: jitter)
    }

    /// Forgets the outage: the next failure starts from the first delay again.
    mutating func succeeded() {
        self = ConnectBackoff()
    }

    /// The outage as the caller sees it at `now`, or nil when no attempt has failed since the last success.
    func failure(address: String, now: ContinuousClock.Instant) -> APNsConnectFailure? {
        guard let outageStart, let lastCause else { return nil }
        return APNsConnectFailure(address: address, cause: lastCause, attempts: failures, elapsed: now - outageStart)
    }

    /// `firstDelay · 2^(failures-1)`, capped at `maxDelay`, scaled by `jitter` (clamped to 0...1).
    static func delay(afterFailures failures: Int, jitter: Double) -> Duration {
        ExponentialBackoff(first: firstDelay, cap: maxDelay).delay(afterFailures: failures, jitter: jitter)
    }

    /// A short cause for `error` as a person reads it: `connection refused`, not
    /// `could not connect: 127.0.0.1:2197: connect failed: Connection refused (errno 111)`.
    static func cause(of error: HTTP2ClientError, address: String) -> String {
        var text: String
        switch error {
        case let .connectFailed(reason): text = reason
        default: text = error.description
        }
        for prefix in [address + ": ", "connect failed: "] where text.hasPrefix(prefix) {
            text.removeFirst(prefix.count)
        }
        if let range = text.range(of: " (errno ", options: .backwards), text.hasSuffix(")") {
            text.removeSubrange(range.lowerBound...)
        }
        guard let first = text.first else { return "unknown error" }
        // strerror's "Connection refused" reads as part of the sentence; keep acronyms such as "TLS" as they are.
        if text.count > 1, first.isUppercase, !(text.dropFirst().first?.isUppercase ?? false) {
            text = first.lowercased() + text.dropFirst()
        }
        return text
    }

    /// Whether `error` cannot be fixed by waiting (the server's certificate is not trusted): waiting pushes fail at
    /// once instead of at their deadline. Later attempts still back off, in case the server's certificate changes.
    static func isPermanent(_ error: HTTP2ClientError) -> Bool {
        if case let .tlsHandshakeFailed(reason) = error { return reason.hasPrefix("certificate verification failed") }
        return false
    }
}
