import NIOCore
import NIOPosix
import Synchronization

/// The event loops HTTP/2 client connections run on: SwiftNIO loops, each with what the connections on it share (the
/// end-of-tick batching and scratch buffer of ``NIOConnectionLoop``). Make one and share it between clients
/// (``HTTP2Client/init(loops:configuration:)``) so that many clients need no threads each; `shutdown()` it when they
/// are done.
public final class HTTP2ClientLoops: Sendable {
    let group: MultiThreadedEventLoopGroup
    let loops: [NIOConnectionLoop]
    /// One per loop, in the same order.
    private let executors: [NIOLoopExecutor]
    private let nextIndex = Atomic<Int>(0)

    /// `threads` new loops (default 1: a client rarely needs more).
    public init(threads: Int = 1) {
        group = MultiThreadedEventLoopGroup(numberOfThreads: max(1, threads))
        loops = group.makeIterator().map { NIOConnectionLoop(nio: $0) }
        executors = loops.map { NIOLoopExecutor($0) }
    }

    /// The executor of the only loop, when there is one (see `APNsClient.taskExecutor`); nil with several.
    public var soleExecutor: (any TaskExecutor)? { executors.count == 1 ? executors[0] : nil }

    /// The loop for the next connection, round-robin.
    func next() -> NIOConnectionLoop {
        loops[nextIndex.wrappingAdd(1, ordering: .relaxed).oldValue % loops.count]
    }

    /// Stops the loops; connections still open on them end (their waiters fail), and calls on them from then on fail at
    /// once. Idempotent.
    public func shutdown() async {
        for loop in loops { loop.markStopped() }
        try? await group.shutdownGracefully()
    }
}
