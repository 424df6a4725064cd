import NIOCore
import Synchronization

/// A SwiftNIO event loop as a ``ConnectionLoop``: one per NIO loop per server or client, shared by the connections
/// NIO puts on that loop. The end of a tick is one task queued on the NIO loop the first time a connection asks for
/// it: NIO runs queued tasks after the I/O events of the iteration, so every connection that read in this iteration
/// flushes once, after all of its input, and many requests read at once leave in one write.
// @unchecked Sendable: everything but `nio` is touched on the NIO loop's thread only.
final class NIOConnectionLoop: ConnectionLoop, @unchecked Sendable {
    let nio: any NIOCore.EventLoop
    /// Loop time of the current batch: stamped by the drivers on each read.
    @exclusivity(unchecked) var now: UInt64
    @exclusivity(unchecked) private var tickObservers: [TickObserver] = []
    @exclusivity(unchecked) private var runningObservers: [TickObserver] = []
    @exclusivity(unchecked) private var tickQueued = false
    /// The end-of-tick task, made once (so queueing it allocates nothing).
    @exclusivity(unchecked) private var tickTask: (() -> Void)?
    let plainBuffer: UnsafeMutableRawBufferPointer
    /// Set by whoever owns the NIO loop just before shutting it down: NIO drops tasks queued on a stopped loop (with an
    /// error it will one day make a crash), and a caller waiting on such a task would wait forever.
    private let stopped = Atomic<Bool>(false)

    init(nio: any NIOCore.EventLoop) {
        self.nio = nio
        now = monotonicNanoseconds()
        plainBuffer = .allocate(byteCount: ConnectionCore.readBufferSize, alignment: 16)
        tickObservers.reserveCapacity(64)
        runningObservers.reserveCapacity(64)
        // Unowned: a queued tick always has observers waiting, connections that hold this loop, so it outlives the tick.
        tickTask = { [unowned self] in runTickObservers() }
    }

    deinit {
        plainBuffer.deallocate()
    }

    @inline(__always)
    func currentTime() -> UInt64 { monotonicNanoseconds() }

    var inEventLoop: Bool { nio.inEventLoop }

    @discardableResult
    func execute(_ task: @escaping @Sendable () -> Void) -> Bool {
        guard !isStopped else { return false }
        nio.execute(task)
        return true
    }

    /// Whether ``markStopped()`` was called.
    var isStopped: Bool { stopped.load(ordering: .acquiring) }

    /// From now on `execute` drops its task and says so. Call before the NIO loop shuts down. A task queued by a
    /// thread that raced this call may still be dropped by NIO; owners stop loops only once they are done with them.
    func markStopped() {
        stopped.store(true, ordering: .releasing)
    }

    func scheduleLocal(in nanoseconds: UInt64, _ task: @escaping () -> Void) {
        nio.assumeIsolatedUnsafeUnchecked().scheduleTask(in: .nanoseconds(Int64(clamping: nanoseconds)), task)
    }

    @inline(__always)
    func addTickObserver(_ observer: TickObserver) {
        tickObservers.append(observer)
        if !tickQueued {
            tickQueued = true
            nio.assumeIsolatedUnsafeUnchecked().execute(tickTask!)
        }
    }

    /// Up to 4 rounds (observers added while ending a tick run in the next round), the rest next time.
    private func runTickObservers() {
        var rounds = 0
        while !tickObservers.isEmpty && rounds < 4 {
            swap(&tickObservers, &runningObservers)
            for observer in runningObservers { observer.endOfTick() }
            runningObservers.removeAll(keepingCapacity: true)
            rounds += 1
        }
        if tickObservers.isEmpty {
            tickQueued = false
        } else {
            nio.assumeIsolatedUnsafeUnchecked().execute(tickTask!)
        }
    }
}
