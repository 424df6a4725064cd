#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The readiness mechanism under an `EventLoop`: which descriptors to watch for which ``IOEvents``, a wait that
/// reports what is ready, and a wake-up other threads can trigger. Loop thread only, except `wake()`.
///
/// Two exist: ``EpollPoller`` (Linux, what the server runs on) and ``PollPoller`` (POSIX `poll(2)` and a pipe, the
/// one macOS uses; Linux runs it too when `MOCKAPNS_IO_DRIVER=poll`, which is how CI tests the macOS path).
protocol IOPoller: AnyObject {
    /// Starts watching `fd` for `events`.
    func add(fd: Int32, events: UInt32) throws(HTTP2Error)
    /// Changes what `fd` is watched for (0: nothing for now, still registered).
    func modify(fd: Int32, events: UInt32)
    /// Stops watching `fd` (before it is closed).
    func remove(fd: Int32)
    /// Waits up to `timeoutMilliseconds` (-1: no limit, 0: just look) and calls `ready` for each descriptor
    /// with events. Wake-ups are consumed here and never reported.
    func wait(timeoutMilliseconds: Int32, _ ready: (Int32, UInt32) -> Void)
    /// Makes a `wait` in progress (or the next one) return soon. Any thread.
    func wake()
    /// Releases the poller's own descriptors.
    func close()
}

/// Which poller the loops use: epoll on Linux, `poll(2)` elsewhere; `MOCKAPNS_IO_DRIVER=poll` (or `epoll`) chooses.
public enum IODriver: String, Sendable, CaseIterable {
    /// Linux's epoll: the default there.
    case epoll
    /// POSIX `poll(2)` with a wake-up pipe: the only one on macOS, and on Linux when asked for.
    case poll

    /// The driver this process uses: `MOCKAPNS_IO_DRIVER` if set to a known name, else the platform's default.
    public static let configured: IODriver = {
        if let name = getenv("MOCKAPNS_IO_DRIVER").map({ String(cString: $0) }), let driver = IODriver(rawValue: name),
           driver.isAvailable {
            return driver
        }
        return .platformDefault
    }()

    /// epoll where it exists, else poll.
    public static var platformDefault: IODriver {
        #if os(Linux)
        return .epoll
        #else
        return .poll
        #endif
    }

    /// Whether this platform has it.
    public var isAvailable: Bool {
        #if os(Linux)
        return true
        #else
        return self == .poll
        #endif
    }

    func makePoller() throws(HTTP2Error) -> any IOPoller {
        switch self {
        case .epoll:
            #if os(Linux)
            return try EpollPoller()
            #else
            return try PollPoller()
            #endif
        case .poll:
            return try PollPoller()
        }
    }
}

/// Whose event loops an ``HTTP2Server`` runs on. A prototype choice for issue #44 ("one runtime, decided by numbers"):
/// the same ``ServerConnection`` on our own loops or on SwiftNIO's, so the two can be measured against each other.
public enum HTTP2ServerRuntime: String, Sendable, CaseIterable {
    /// Our own loops, on the ``IODriver`` poller.
    case ownLoops = "own"
    /// SwiftNIO's `MultiThreadedEventLoopGroup` (epoll on Linux, kqueue on macOS); `MOCKAPNS_IO_DRIVER=nio`.
    case nio

    /// `nio` when `MOCKAPNS_IO_DRIVER=nio`, else our own loops (clients always run on our own loops).
    public static let configured: HTTP2ServerRuntime =
        getenv("MOCKAPNS_IO_DRIVER").map { String(cString: $0) } == "nio" ? .nio : .ownLoops
}
