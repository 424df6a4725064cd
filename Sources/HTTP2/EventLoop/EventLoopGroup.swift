import CSystemShims
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization
import Support

/// A fixed set of `EventLoop`s, one thread each (default: one per core). Connections are spread
/// across the loops round-robin. Call `shutdown()` (or let the owning server do it) to stop the threads.
public final class EventLoopGroup: Sendable {
    /// The loops, in index order.
    public let loops: [EventLoop]
    /// The loop threads (``csystem_thread_start`` handles) until they are joined.
    private let threads: Locked<[UInt]>
    private let nextLoop = Atomic<Int>(0)

    /// Number of online CPU cores (at least 1): the default loop count.
    public static var coreCount: Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }

    /// Starts `threads` loop threads (clamped to at least 1), each on a poller of `driver`'s kind (epoll on Linux
    /// unless `MOCKAPNS_IO_DRIVER=poll`; `poll(2)` on macOS).
    public init(threads: Int = EventLoopGroup.coreCount, driver: IODriver = .configured) throws(HTTP2Error) {
        // Writes to a socket the peer closed must fail with EPIPE, not kill the process. Our sockets use
        // MSG_NOSIGNAL (SO_NOSIGPIPE on Darwin); this also covers anything else in the process that writes to sockets.
        signal(SIGPIPE, SIG_IGN)
        var loops: [EventLoop] = []
        for index in 0..<max(1, threads) {
            loops.append(try EventLoop(index: index, driver: driver))
        }
        self.loops = loops
        var started: [UInt] = []
        for loop in loops {
            var thread: UInt = 0
            let box = Unmanaged.passRetained(loop).toOpaque()
            let rc = csystem_thread_start({ raw in
                let loop = Unmanaged<EventLoop>.fromOpaque(raw!).takeRetainedValue()
                ThreadName.set("apns-loop-\(loop.index)")   // its CPU told apart from the writer threads'
                loop.run()
                return nil
            }, box, &thread)
            if rc != 0 {
                Unmanaged<EventLoop>.fromOpaque(box).release()
                for (i, t) in started.enumerated() {
                    loops[i].requestStop()
                    _ = csystem_thread_join(t)
                }
                throw .system(operation: "pthread_create", errno: rc)
            }
            started.append(thread)
        }
        self.threads = Locked(started)
    }

    /// The next loop in round-robin order.
    public func next() -> EventLoop {
        let n = nextLoop.wrappingAdd(1, ordering: .relaxed).oldValue
        return loops[n % loops.count]
    }

    /// Stops every loop and waits for its thread to exit. Must not be called from a loop thread.
    /// Idempotent.
    public func shutdown() {
        let threads = self.threads.withLock { t in
            let copy = t
            t = []
            return copy
        }
        // Already shut down: nothing to check. (A loop keeps its thread's id once the thread has been joined, and a
        // new thread may be given the same id: the check below would take a second shutdown's joiner for a loop.)
        guard !threads.isEmpty else { return }
        precondition(!loops.contains { $0.inEventLoop }, "EventLoopGroup.shutdown() called on one of its own loops")
        for loop in loops { loop.requestStop() }
        for thread in threads { _ = csystem_thread_join(thread) }
    }

    /// Async variant of `shutdown()` that joins the threads off the cooperative pool.
    public func shutdown() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let box = Unmanaged.passRetained(JoinJob(group: self, continuation: continuation)).toOpaque()
            var thread: UInt = 0
            let rc = csystem_thread_start({ raw in
                let job = Unmanaged<JoinJob>.fromOpaque(raw!).takeRetainedValue()
                job.group.shutdown()
                job.continuation.resume()
                return nil
            }, box, &thread)
            if rc == 0 {
                _ = csystem_thread_detach(thread)
            } else {
                let job = Unmanaged<JoinJob>.fromOpaque(box).takeRetainedValue()
                job.group.shutdown()
                job.continuation.resume()
            }
        }
    }

    deinit {
        let remaining = threads.withLock { $0 }
        if !remaining.isEmpty {
            for loop in loops { loop.requestStop() }
            for thread in remaining { _ = csystem_thread_detach(thread) }
        }
    }
}

/// Carries a group and a continuation to the helper thread that joins the loops.
private final class JoinJob: Sendable {
    let group: EventLoopGroup
    let continuation: CheckedContinuation<Void, Never>
    init(group: EventLoopGroup, continuation: CheckedContinuation<Void, Never>) {
        self.group = group
        self.continuation = continuation
    }
}
