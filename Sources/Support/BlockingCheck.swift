#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// Fails loudly when code is about to block its thread while that thread is an event loop's: a loop that waits for
/// work only another loop task can do (a record writer's database connection lives on the same loops) waits for ever.
///
/// The modules that run loops install how to tell a loop thread (``installLoopThreadCheck(_:)``; SwiftNIO's is
/// `MultiThreadedEventLoopGroup.currentEventLoop != nil`), since this module knows no event loop. Every call that may
/// block a thread (a wait on a condition, a flush that waits for a writer) calls ``mayBlock(_:)`` first. The check is
/// on in debug builds and wherever `MOCKAPNS_CHECK_BLOCKING=1` is set (the test suites set it), as SwiftNIO's own
/// `wait()` refuses to run on a loop.
public enum BlockingCheck {
    private static let check = Locked<(@Sendable () -> Bool)?>(nil)
    private static let enabled: Bool = {
        #if DEBUG
        return true
        #else
        return getenv("MOCKAPNS_CHECK_BLOCKING").map { String(cString: $0) == "1" } ?? false
        #endif
    }()

    /// Sets how to tell whether the calling thread is an event loop's; the last one installed wins.
    public static func installLoopThreadCheck(_ isLoopThread: @escaping @Sendable () -> Bool) {
        check.withLock { $0 = isLoopThread }
    }

    /// Stops the process, naming `operation`, when the check is on and the calling thread is an event loop's.
    public static func mayBlock(_ operation: @autoclosure () -> String, file: StaticString = #fileID, line: UInt = #line) {
        guard enabled, let isLoopThread = check.withLock({ $0 }), isLoopThread() else { return }
        preconditionFailure("\(operation()) would block an event-loop thread: it waits for work that may need this very "
                            + "loop (move the call off the loop, or use its async form)", file: file, line: line)
    }
}
