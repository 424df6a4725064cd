import Synchronization

/// The mock's idea of "now" for provider-token rules: real time plus an offset a test can move.
///
/// Token rules are about time — a JWT expires after an hour, a new token within 20 minutes of the last
/// is refused — and a sender's refresh logic cannot be tested by waiting. `advance(by:)` moves the mock's
/// clock forward (or back) for those rules without touching the system clock.
public final class MockClock: Sendable {
    private let offset = Atomic<Int64>(0)

    /// A clock that reads real time until it is moved.
    public init() {}

    /// Seconds since the Unix epoch as the mock sees them; pinned to Int64's ends rather than wrapping or
    /// trapping when a test moves the clock absurdly far.
    public func nowSeconds() -> Int64 {
        let offset = offset.load(ordering: .relaxed)
        let (now, overflow) = Timestamp.nowSeconds().addingReportingOverflow(offset)
        return overflow ? (offset < 0 ? .min : .max) : now
    }

    /// How far the clock is from real time, in seconds.
    public var offsetSeconds: Int64 { offset.load(ordering: .relaxed) }

    /// Moves the clock by `seconds` (negative moves it back).
    public func advance(by seconds: Int64) {
        offset.add(seconds, ordering: .relaxed)
    }

    /// Puts the clock `seconds` away from real time.
    public func set(offsetSeconds seconds: Int64) {
        offset.store(seconds, ordering: .relaxed)
    }
}
