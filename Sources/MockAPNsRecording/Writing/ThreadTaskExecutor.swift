import Foundation

/// A task executor with one thread of its own: a task that prefers it runs there, between its suspensions.
///
/// The record file's writer consumes on one, so its blocking `pwrite` calls (and a disk that stalls them) never
/// hold one of the few threads of Swift's shared pool, which the control plane and the test kit's awaits need.
// @unchecked Sendable: `jobs` and `stopping` are only touched with `condition` held.
final class ThreadTaskExecutor: TaskExecutor, @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var stopping = false

    /// Starts the thread, named `name` (at most 15 bytes: Linux refuses a longer thread name).
    init(name: String) {
        let thread = Thread { [self] in run() }
        thread.name = name
        thread.start()
    }

    /// Runs `job` on the thread, after the jobs before it.
    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.unlock()
        condition.signal()
    }

    /// Lets the thread end once it has run every job it was given; called by the last task that prefers it, as
    /// its last act.
    func stop() {
        condition.lock()
        stopping = true
        condition.unlock()
        condition.signal()
    }

    private func run() {
        while true {
            condition.lock()
            while jobs.isEmpty && !stopping { condition.wait() }
            if jobs.isEmpty {
                condition.unlock()
                return
            }
            let ready = jobs
            jobs.removeAll(keepingCapacity: true)
            condition.unlock()
            for job in ready { job.runSynchronously(on: asUnownedTaskExecutor()) }
        }
    }
}
