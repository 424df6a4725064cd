/// An event loop can run Swift tasks: a task that prefers it (`Task(executorPreference: loop)`,
/// `TaskGroup.addTask(executorPreference:)`) runs on the loop thread between I/O events.
///
/// Why: a task that sends on a connection of this loop then hands its request over and gets its answer without
/// leaving the thread; on the global executor every request costs two thread hops (a wake-up each way), which
/// for small requests costs more than the request itself. A task on the loop must not block: it shares the
/// thread with every connection of the loop.
extension EventLoop: TaskExecutor {
    /// Runs `job` on the loop thread.
    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        execute { [self] in job.runSynchronously(on: asUnownedTaskExecutor()) }
    }
}
