import Foundation

/// Waiting in tests for something another thread, process or peer does: always with a deadline (a poll loop
/// without one hangs the suite when the thing never happens), never a fixed sleep before a check.
public enum Poll {
    /// Polls `condition` every `interval` until it holds or `timeout` has passed; whether it held.
    public static func until(timeout: Duration = .seconds(60), every interval: Duration = .milliseconds(100),
                             _ condition: () throws -> Bool) async throws -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if try condition() { return true }
            try await Task.sleep(for: interval)
        }
        return try condition()
    }

    /// ``until(timeout:every:_:)`` for synchronous tests: the calling thread sleeps between polls.
    public static func blockingUntil(timeout: Duration = .seconds(30), every interval: Duration = .milliseconds(5),
                                     _ condition: () throws -> Bool) rethrows -> Bool {
        let deadline = ContinuousClock.now + timeout
        let pause = Double(interval.components.seconds) + Double(interval.components.attoseconds) / 1e18
        while ContinuousClock.now < deadline {
            if try condition() { return true }
            Thread.sleep(forTimeInterval: pause)
        }
        return try condition()
    }
}
