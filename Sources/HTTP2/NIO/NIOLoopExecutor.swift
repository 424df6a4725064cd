import NIOCore

/// A SwiftNIO event loop as a Swift `TaskExecutor`: a task that prefers it (`Task(executorPreference:)`,
/// `TaskGroup.addTask(executorPreference:)`) runs on the loop thread between I/O events.
///
/// Why: a task that sends on a connection of this loop then hands its request over and gets its answer without
/// leaving the thread; on the global executor every request costs two thread hops (a wake-up each way), which for
/// small requests costs more than the request itself. A task on the loop must not block: it shares the thread with
/// every connection of the loop.
public final class NIOLoopExecutor: TaskExecutor {
    private let loop: NIOConnectionLoop

    init(_ loop: NIOConnectionLoop) {
        self.loop = loop
    }

    /// Whether the calling thread is the loop's.
    public var inEventLoop: Bool { loop.inEventLoop }

    /// Runs `job` on the loop thread; once the loop has stopped, on the global executor, so that a task that still
    /// prefers this loop after its client shut down finishes rather than waits forever.
    public func enqueue(_ job: consuming ExecutorJob) {
        if loop.isStopped {
            globalConcurrentExecutor.enqueue(job)
            return
        }
        let job = UnownedJob(job)
        loop.execute { [self] in job.runSynchronously(on: asUnownedTaskExecutor()) }
    }
}
