import CSystemShims
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization
import Synchronized

/// One epoll thread. Owns the sockets registered on it; everything a connection does runs here.
///
/// `execute(_:)` and `scheduleTask(in:_:)` are callable from any thread: the task queue is behind a
/// mutex and an eventfd wakes the loop. Everything else is touched only by the loop thread.
// @unchecked Sendable: `queue` is guarded by a pthread mutex (`Locked`), `threadID`/`stopRequested` are atomics, and every other
// stored property is confined to the loop thread.
public final class EventLoop: @unchecked Sendable {
    private struct Queue {
        var tasks: [@Sendable () -> Void] = []
        var wakePending = false
        /// Set once `run()` has finished: later tasks are dropped rather than kept forever.
        var stopped = false
    }

    /// Index of this loop within its group (0-based).
    public let index: Int
    private let epollFD: Int32
    private let wakeFD: Int32
    private let queue = Locked(Queue())
    private let threadID = Atomic<UInt>(0)
    private let stopRequested = Atomic<Bool>(false)

    // Loop-thread state.
    @exclusivity(unchecked) private var handlers: [Selectable?] = []
    @exclusivity(unchecked) private var timers = TimerHeap()
    @exclusivity(unchecked) private var tickObservers: [TickObserver] = []
    @exclusivity(unchecked) private var runningTasks: [@Sendable () -> Void] = []
    /// Monotonic time at the start of the current iteration's event processing.
    @exclusivity(unchecked) private(set) var now: UInt64 = monotonicNanoseconds()
    /// Scratch buffers for reads, shared by every connection of this loop (used synchronously).
    let readBuffer: UnsafeMutableRawBufferPointer
    let plainBuffer: UnsafeMutableRawBufferPointer
    static let readBufferSize = 64 * 1024

    init(index: Int) throws(HTTP2Error) {
        self.index = index
        let ep = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard ep >= 0 else { throw .system(operation: "epoll_create1", errno: errno) }
        let ev = eventfd(0, csystem_EFD_NONBLOCK_CLOEXEC())
        guard ev >= 0 else {
            Glibc.close(ep)
            throw .system(operation: "eventfd", errno: errno)
        }
        epollFD = ep
        wakeFD = ev
        readBuffer = .allocate(byteCount: Self.readBufferSize, alignment: 16)
        plainBuffer = .allocate(byteCount: Self.readBufferSize, alignment: 16)
        _ = csystem_epoll_ctl(epollFD, EPOLL_CTL_ADD, wakeFD, EpollEvents.input)
    }

    deinit {
        Glibc.close(epollFD)
        Glibc.close(wakeFD)
        readBuffer.deallocate()
        plainBuffer.deallocate()
    }

    /// True when called on this loop's thread.
    public var inEventLoop: Bool {
        UInt(bitPattern: Int(bitPattern: UInt(pthread_self()))) == threadID.load(ordering: .relaxed)
    }

    /// Runs `task` on the loop thread, soon. Callable from any thread. Once the loop has stopped (its group
    /// shut down) the task is dropped: nothing runs on a stopped loop.
    public func execute(_ task: @escaping @Sendable () -> Void) {
        enqueue(task)
    }

    func enqueue(_ task: @escaping @Sendable () -> Void) {
        let wake = queue.withLock { q -> Bool in
            // A stopped loop will never run it. Kept, the task (often holding a connection, which holds this
            // loop) would keep the loop and its descriptors alive forever; dropped, it is released right here.
            if q.stopped { return false }
            q.tasks.append(task)
            if q.wakePending { return false }
            q.wakePending = true
            return true
        }
        if wake {
            var one: UInt64 = 1
            _ = Glibc.write(wakeFD, &one, 8)
        }
    }

    /// Runs `task` on the loop thread after `delay`. Callable from any thread.
    @discardableResult
    public func scheduleTask(in delay: Duration, _ task: @escaping @Sendable () -> Void) -> Scheduled {
        let handle = Scheduled()
        let deadline = monotonicNanoseconds() &+ delay.nanoseconds
        if inEventLoop {
            timers.insert(deadline: deadline, handle: handle, task: task)
        } else {
            enqueue { [self] in timers.insert(deadline: deadline, handle: handle, task: task) }
        }
        return handle
    }

    /// Loop-thread variant of `scheduleTask` that accepts a non-Sendable task.
    @discardableResult
    func scheduleLocal(in nanoseconds: UInt64, _ task: @escaping () -> Void) -> Scheduled {
        let handle = Scheduled()
        timers.insert(deadline: monotonicNanoseconds() &+ nanoseconds, handle: handle, task: task)
        return handle
    }

    // MARK: - Registration (loop thread only)

    func register(fd: Int32, events: UInt32, handler: Selectable) throws(HTTP2Error) {
        let index = Int(fd)
        if index >= handlers.count {
            handlers.append(contentsOf: repeatElement(nil, count: index - handlers.count + 64))
        }
        guard csystem_epoll_ctl(epollFD, EPOLL_CTL_ADD, fd, events) == 0 else {
            throw .system(operation: "epoll_ctl(ADD)", errno: errno)
        }
        handlers[index] = handler
    }

    func modify(fd: Int32, events: UInt32) {
        _ = csystem_epoll_ctl(epollFD, EPOLL_CTL_MOD, fd, events)
    }

    func deregister(fd: Int32) {
        _ = csystem_epoll_ctl(epollFD, EPOLL_CTL_DEL, fd, 0)
        let index = Int(fd)
        if index < handlers.count { handlers[index] = nil }
    }

    /// Asks for `observer.endOfTick()` at the end of this iteration. The caller de-duplicates.
    func addTickObserver(_ observer: TickObserver) {
        tickObservers.append(observer)
    }

    // MARK: - Running

    func requestStop() {
        stopRequested.store(true, ordering: .relaxed)
        enqueue {}
    }

    /// The loop body; runs on the loop's own thread until `requestStop()`.
    func run() {
        threadID.store(UInt(bitPattern: Int(bitPattern: UInt(pthread_self()))), ordering: .relaxed)
        let maxEvents: Int32 = 256
        let fds = UnsafeMutablePointer<Int32>.allocate(capacity: Int(maxEvents))
        let events = UnsafeMutablePointer<UInt32>.allocate(capacity: Int(maxEvents))
        defer {
            fds.deallocate()
            events.deallocate()
        }
        while !stopRequested.load(ordering: .relaxed) {
            var timeout: Int32 = -1
            if !tickObservers.isEmpty {
                timeout = 0
            } else if let deadline = timers.earliestDeadline {
                let current = monotonicNanoseconds()
                timeout = deadline <= current ? 0 : Int32(min((deadline - current + 999_999) / 1_000_000, 60_000))
            }
            let n = csystem_epoll_wait(epollFD, fds, events, maxEvents, timeout)
            now = monotonicNanoseconds()
            if n > 0 {
                for i in 0..<Int(n) {
                    let fd = fds[i]
                    if fd == wakeFD {
                        var value: UInt64 = 0
                        _ = Glibc.read(wakeFD, &value, 8)
                        continue
                    }
                    let slot = Int(fd)
                    if slot < handlers.count, let handler = handlers[slot] {
                        handler.ready(events: events[i])
                    }
                }
            }
            runQueuedTasks()
            runDueTimers()
            runTickObservers()
        }
        // Whatever is still registered goes with the loop: sockets are closed and their waiters failed. Then
        // drain what is left so that closures (and what they own) are released on this thread, and drop
        // anything enqueued from now on (see `enqueue`).
        for handler in handlers.compactMap({ $0 }) { handler.loopStopped() }
        runQueuedTasks()
        runTickObservers()
        timers.removeAll()
        handlers.removeAll()
        tickObservers.removeAll()
        let late = queue.withLock { q in
            q.stopped = true
            defer { q.tasks = [] }
            return q.tasks
        }
        _ = late   // released here, outside the lock
    }

    private func runQueuedTasks() {
        queue.withLock { q in
            swap(&q.tasks, &self.runningTasks)
            q.wakePending = false
        }
        for task in runningTasks { task() }
        runningTasks.removeAll(keepingCapacity: true)
    }

    private func runDueTimers() {
        let current = monotonicNanoseconds()
        while let entry = timers.popDue(now: current) {
            if !entry.handle.isCancelled { entry.task() }
        }
    }

    private func runTickObservers() {
        var rounds = 0
        while !tickObservers.isEmpty && rounds < 4 {
            let observers = tickObservers
            tickObservers.removeAll(keepingCapacity: true)
            for observer in observers { observer.endOfTick() }
            rounds += 1
        }
    }
}
