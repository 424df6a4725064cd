import CSystemShims
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization
import Support

/// One loop thread. Owns the sockets registered on it; everything a connection does runs here.
///
/// `execute(_:)` and `scheduleTask(in:_:)` are callable from any thread: the task queue is behind a
/// mutex and the poller's wake-up interrupts the wait. Everything else is touched only by the loop thread.
///
/// An embedded loop (``init(embeddedAt:)``) has no poller and no thread of its own: whoever created it drives it
/// (``runEmbedded()``) and moves its clock (``advanceEmbeddedClock(by:)``), so connections on it run in memory,
/// deterministically (``EmbeddedHTTP2Connection``).
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
    /// The poller under this loop (nil for an embedded loop).
    public let driver: IODriver?
    /// The readiness mechanism (nil for an embedded loop, which has no descriptors).
    private let poller: (any IOPoller)?
    private let queue = Locked(Queue())
    private let threadID = Atomic<UInt>(0)
    private let stopRequested = Atomic<Bool>(false)

    // Loop-thread state.
    @exclusivity(unchecked) private var handlers: [Selectable?] = []
    @exclusivity(unchecked) private var timers = TimerHeap()
    @exclusivity(unchecked) private var tickObservers: [TickObserver] = []
    @exclusivity(unchecked) private var runningTasks: [@Sendable () -> Void] = []
    /// Monotonic time at the start of the current iteration's event processing.
    @exclusivity(unchecked) private(set) var now: UInt64
    /// An embedded loop's clock (nanoseconds, moved only by ``advanceEmbeddedClock(by:)``); nil for a real loop.
    @exclusivity(unchecked) private var embeddedClock: UInt64?
    /// Scratch buffers for reads, shared by every connection of this loop (used synchronously).
    let readBuffer: UnsafeMutableRawBufferPointer
    let plainBuffer: UnsafeMutableRawBufferPointer
    static let readBufferSize = 64 * 1024

    init(index: Int, driver: IODriver = .configured) throws(HTTP2Error) {
        self.index = index
        self.driver = driver
        poller = try driver.makePoller()
        now = monotonicNanoseconds()
        readBuffer = .allocate(byteCount: Self.readBufferSize, alignment: 16)
        plainBuffer = .allocate(byteCount: Self.readBufferSize, alignment: 16)
    }

    /// An embedded loop: no thread, no poller; the calling thread is its loop thread and its clock starts at
    /// `startNanoseconds` and moves only when told.
    init(embeddedAt startNanoseconds: UInt64) {
        index = 0
        driver = nil
        poller = nil
        embeddedClock = startNanoseconds
        now = startNanoseconds
        readBuffer = .allocate(byteCount: Self.readBufferSize, alignment: 16)
        plainBuffer = .allocate(byteCount: Self.readBufferSize, alignment: 16)
        threadID.store(Self.currentThreadID, ordering: .relaxed)
    }

    deinit {
        poller?.close()
        readBuffer.deallocate()
        plainBuffer.deallocate()
    }

    private static var currentThreadID: UInt { UInt(csystem_thread_self()) }

    /// The loop's clock in nanoseconds: CLOCK_MONOTONIC, or the embedded clock.
    @inline(__always)
    func currentTime() -> UInt64 {
        if let embeddedClock { return embeddedClock }
        return monotonicNanoseconds()
    }

    /// True when called on this loop's thread.
    public var inEventLoop: Bool {
        Self.currentThreadID == threadID.load(ordering: .relaxed)
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
        if wake { poller?.wake() }
    }

    /// Runs `task` on the loop thread after `delay`. Callable from any thread.
    @discardableResult
    public func scheduleTask(in delay: Duration, _ task: @escaping @Sendable () -> Void) -> Scheduled {
        let handle = Scheduled()
        let deadline = currentTime() &+ delay.nanoseconds
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
        timers.insert(deadline: currentTime() &+ nanoseconds, handle: handle, task: task)
        return handle
    }

    // MARK: - Registration (loop thread only)

    func register(fd: Int32, events: UInt32, handler: Selectable) throws(HTTP2Error) {
        guard let poller else { throw .system(operation: "register (an embedded loop has no descriptors)", errno: EINVAL) }
        let index = Int(fd)
        if index >= handlers.count {
            handlers.append(contentsOf: repeatElement(nil, count: index - handlers.count + 64))
        }
        try poller.add(fd: fd, events: events)
        handlers[index] = handler
    }

    func modify(fd: Int32, events: UInt32) {
        poller?.modify(fd: fd, events: events)
    }

    func deregister(fd: Int32) {
        poller?.remove(fd: fd)
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
        guard let poller else { preconditionFailure("an embedded loop is driven by runEmbedded(), not run()") }
        threadID.store(Self.currentThreadID, ordering: .relaxed)
        while !stopRequested.load(ordering: .relaxed) {
            var timeout: Int32 = -1
            if !tickObservers.isEmpty {
                timeout = 0
            } else if let deadline = timers.earliestDeadline {
                let current = monotonicNanoseconds()
                timeout = deadline <= current ? 0 : Int32(min((deadline - current + 999_999) / 1_000_000, 60_000))
            }
            var first = true
            poller.wait(timeoutMilliseconds: timeout) { fd, events in
                if first {
                    now = monotonicNanoseconds()
                    first = false
                }
                let slot = Int(fd)
                if slot < handlers.count, let handler = handlers[slot] {
                    handler.ready(events: events)
                }
            }
            if first { now = monotonicNanoseconds() }
            runQueuedTasks()
            runDueTimers()
            runTickObservers()
        }
        tearDown()
    }

    /// The loop's end. Whatever is still registered goes with the loop: sockets are closed and their waiters failed.
    /// Then what is left is drained so that closures (and what they own) are released on this thread, and anything
    /// enqueued from now on is dropped (see `enqueue`).
    private func tearDown() {
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

    // MARK: - Embedded driving (one caller at a time)

    /// Makes the calling thread an embedded loop's thread from now on: Swift concurrency may resume the one task
    /// driving it on another thread after an `await`, and work done from there must count as on the loop.
    func adoptCallingThread() {
        precondition(embeddedClock != nil, "only an embedded loop changes threads")
        threadID.store(Self.currentThreadID, ordering: .relaxed)
    }

    /// Runs what an embedded loop has to do now — queued tasks, timers due at its clock, end-of-tick work —
    /// until nothing is left (at most `rounds` passes, so a task that always re-queues itself cannot hang a test).
    func runEmbedded(rounds: Int = 1_000) {
        precondition(embeddedClock != nil && inEventLoop, "runEmbedded() drives an embedded loop from its own thread")
        for _ in 0..<rounds {
            now = currentTime()
            runQueuedTasks()
            runDueTimers()
            runTickObservers()
            let idle = tickObservers.isEmpty && queue.withLock { $0.tasks.isEmpty }
                && !(timers.earliestDeadline.map { $0 <= currentTime() } ?? false)
            if idle { return }
        }
    }

    /// Moves an embedded loop's clock forward, then runs what became due.
    func advanceEmbeddedClock(by nanoseconds: UInt64) {
        precondition(embeddedClock != nil, "only an embedded loop's clock can be moved")
        embeddedClock = embeddedClock! &+ nanoseconds
        runEmbedded()
    }

    /// Ends an embedded loop as a stopped real loop ends (``tearDown()``): pending work is run or dropped, nothing
    /// queued later runs.
    func stopEmbedded() {
        tearDown()
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
        let current = currentTime()
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
