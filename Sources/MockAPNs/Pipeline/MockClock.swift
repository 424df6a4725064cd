import Synchronization

/// The mock's idea of "now": real time plus an offset a test can move.
///
/// Token rules are about time — a JWT expires after an hour, a new token within 20 minutes of the last
/// is refused — and a sender's refresh logic cannot be tested by waiting. `advance(by:)` moves the mock's
/// clock forward (or back) for those rules without touching the system clock. Records are stamped with it too, so a
/// virtual device's timeline (which orders pushes by when they were received) follows the same clock.
public final class MockClock: Sendable {
    private let offset = Atomic<Int64>(0)
    /// The instant the clock is stopped at, or `notFrozen`.
    private let frozen = Atomic<Int64>(MockClock.notFrozen)
    private static let notFrozen = Int64.min

    /// A clock that reads real time until it is moved.
    public init() {}

    /// Milliseconds since the Unix epoch as the mock sees them; pinned to Int64's ends rather than wrapping or
    /// trapping when a test moves the clock absurdly far.
    public func nowMillis() -> Int64 {
        let frozen = frozen.load(ordering: .relaxed)
        if frozen != Self.notFrozen { return frozen }
        let offset = offset.load(ordering: .relaxed)
        let (now, overflow) = Timestamp.nowMillis().addingReportingOverflow(offset)
        return overflow ? (offset < 0 ? .min : .max) : now
    }

    /// Seconds since the Unix epoch as the mock sees them.
    public func nowSeconds() -> Int64 {
        nowMillis() / 1000
    }

    /// How far the clock is from real time, in whole seconds.
    public var offsetSeconds: Int64 { offset.load(ordering: .relaxed) / 1000 }

    /// Moves the clock by `seconds` (negative moves it back).
    public func advance(by seconds: Int64) {
        offset.add(seconds.multipliedReportingOverflow(by: 1000).overflow ? (seconds < 0 ? .min / 2 : .max / 2) : seconds * 1000,
                   ordering: .relaxed)
    }

    /// Puts the clock `seconds` away from real time.
    public func set(offsetSeconds seconds: Int64) {
        set(offsetMillis: seconds.multipliedReportingOverflow(by: 1000).overflow ? (seconds < 0 ? .min : .max) : seconds * 1000)
    }

    /// Puts the clock `millis` away from real time.
    public func set(offsetMillis millis: Int64) {
        offset.store(millis, ordering: .relaxed)
    }

    /// Puts the clock at `millis` since the Unix epoch (it runs on from there at real speed).
    public func set(nowMillis millis: Int64) {
        let (offset, overflow) = millis.subtractingReportingOverflow(Timestamp.nowMillis())
        set(offsetMillis: overflow ? (millis < 0 ? .min : .max) : offset)
    }

    /// Stops the clock at `millis` since the Unix epoch, so everything stamped until ``unfreeze()`` gets exactly that
    /// instant: a scenario replayed over the wire then has the times it was written with.
    public func freeze(atMillis millis: Int64) {
        frozen.store(millis == Self.notFrozen ? millis + 1 : millis, ordering: .relaxed)
    }

    /// Lets a frozen clock run again from real time plus its offset.
    public func unfreeze() {
        frozen.store(Self.notFrozen, ordering: .relaxed)
    }
}
