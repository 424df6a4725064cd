/// What a connection needs from the loop it lives on: a clock, a way in from other threads, timers, and one call at
/// the end of the loop's current batch of work (where ``ConnectionCore`` flushes its output). Implemented over a
/// SwiftNIO event loop (``NIOConnectionLoop``) and in memory (``EmbeddedLoop``). Everything but `execute` and
/// `inEventLoop` is called on the loop's thread only.
protocol ConnectionLoop: AnyObject, Sendable {
    /// Loop time (monotonic nanoseconds) of the current batch of events: cheap, a little behind the clock.
    var now: UInt64 { get }
    /// The loop's clock now (monotonic nanoseconds; an embedded loop's own clock).
    func currentTime() -> UInt64
    /// True when called on the loop's thread.
    var inEventLoop: Bool { get }
    /// Runs `task` on the loop's thread, soon, and returns true; once the loop has stopped, drops `task` and returns
    /// false, so that a caller waiting for the task can stop waiting. Any thread.
    @discardableResult
    func execute(_ task: @escaping @Sendable () -> Void) -> Bool
    /// Runs `task` on the loop's thread after `nanoseconds`. Loop thread only.
    func scheduleLocal(in nanoseconds: UInt64, _ task: @escaping () -> Void)
    /// Asks for `observer.endOfTick()` once the loop has handled the current batch of events. The caller de-duplicates.
    func addTickObserver(_ observer: TickObserver)
    /// Scratch space for decrypted input (``ConnectionCore/readBufferSize`` bytes), shared by the loop's connections,
    /// used synchronously.
    var plainBuffer: UnsafeMutableRawBufferPointer { get }
}
