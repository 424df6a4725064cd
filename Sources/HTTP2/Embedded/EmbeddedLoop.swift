#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization
import Support

/// A loop with no thread and no I/O of its own (a ``ConnectionLoop``), as swift-nio's `EmbeddedEventLoop` is: whoever
/// drives it runs its work (``run()``) and moves its clock (``advanceClock(by:)``), so a connection on it runs in
/// memory, deterministically (``EmbeddedHTTP2Connection``).
///
/// `execute(_:)` is callable from any thread (a handler answering from elsewhere): the task queue is behind a lock.
/// Everything else is touched only by the thread that drives it.
// @unchecked Sendable: `queue` is behind `Locked`, `threadID` is atomic, the rest belongs to the driving thread.
final class EmbeddedLoop: ConnectionLoop, @unchecked Sendable {
    private struct Queue {
        var tasks: [@Sendable () -> Void] = []
        /// Set once stopped: later tasks are dropped rather than kept (with what they hold) for ever.
        var stopped = false
    }

    private let queue = Locked(Queue())
    private let threadID = Atomic<UInt>(0)
    @exclusivity(unchecked) private var timers = TimerHeap()
    @exclusivity(unchecked) private var tickObservers: [TickObserver] = []
    @exclusivity(unchecked) private var running: [@Sendable () -> Void] = []
    /// The clock (nanoseconds), moved only by ``advanceClock(by:)``.
    @exclusivity(unchecked) private var clock: UInt64
    @exclusivity(unchecked) private(set) var now: UInt64
    let plainBuffer: UnsafeMutableRawBufferPointer

    /// A loop whose clock starts at `startNanoseconds`; the calling thread drives it.
    init(startingAt startNanoseconds: UInt64) {
        clock = startNanoseconds
        now = startNanoseconds
        plainBuffer = .allocate(byteCount: ConnectionCore.readBufferSize, alignment: 16)
        threadID.store(Self.currentThreadID, ordering: .relaxed)
    }

    deinit {
        plainBuffer.deallocate()
    }

    private static var currentThreadID: UInt {
        #if canImport(Darwin)
        UInt(bitPattern: pthread_self())
        #else
        UInt(pthread_self())
        #endif
    }

    func currentTime() -> UInt64 { clock }

    var inEventLoop: Bool { Self.currentThreadID == threadID.load(ordering: .relaxed) }

    @discardableResult
    func execute(_ task: @escaping @Sendable () -> Void) -> Bool {
        queue.withLock { queue in
            if queue.stopped { return false }
            queue.tasks.append(task)
            return true
        }
    }

    func scheduleLocal(in nanoseconds: UInt64, _ task: @escaping () -> Void) {
        timers.insert(deadline: clock &+ nanoseconds, task: task)
    }

    func addTickObserver(_ observer: TickObserver) {
        tickObservers.append(observer)
    }

    /// Makes the calling thread the loop's thread from now on: Swift concurrency may resume the one task driving it
    /// on another thread after an `await`, and work done from there must count as on the loop.
    func adoptCallingThread() {
        threadID.store(Self.currentThreadID, ordering: .relaxed)
    }

    /// Runs what is due now — queued tasks, timers due at its clock, end-of-tick work — until nothing is left (at most
    /// `rounds` passes, so a task that always queues itself again cannot hang a test).
    func run(rounds: Int = 1_000) {
        precondition(inEventLoop, "an embedded loop is run from the thread driving it")
        for _ in 0..<rounds {
            now = clock
            runQueuedTasks()
            runDueTimers()
            runTickObservers()
            let idle = tickObservers.isEmpty && queue.withLock { $0.tasks.isEmpty }
                && !(timers.earliestDeadline.map { $0 <= clock } ?? false)
            if idle { return }
        }
    }

    /// Moves the clock forward, then runs what became due.
    func advanceClock(by nanoseconds: UInt64) {
        clock &+= nanoseconds
        run()
    }

    /// Ends the loop: what is queued runs once more, timers are dropped, and nothing queued later runs.
    func stop() {
        runQueuedTasks()
        runTickObservers()
        timers.removeAll()
        tickObservers.removeAll()
        let late = queue.withLock { queue in
            queue.stopped = true
            defer { queue.tasks = [] }
            return queue.tasks
        }
        _ = late   // released here, outside the lock
    }

    private func runQueuedTasks() {
        queue.withLock { queue in swap(&queue.tasks, &running) }
        for task in running { task() }
        running.removeAll(keepingCapacity: true)
    }

    private func runDueTimers() {
        while let entry = timers.popDue(now: clock) { entry.task() }
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
