import CSystemShims

/// Something registered with an `EventLoop` for readiness of one file descriptor.
/// Only ever called on the owning loop's thread.
protocol Selectable: AnyObject {
    /// The descriptor is ready; `events` is a set of ``IOEvents`` bits.
    func ready(events: UInt32)
    /// The loop is stopping for good with this still registered: close the descriptor and fail whatever
    /// waits on it, since nothing will ever run for it again.
    func loopStopped()
}

/// Something that wants a call once at the end of the current loop iteration (e.g. to batch output).
protocol TickObserver: AnyObject {
    /// Called on the loop thread after the iteration's events, tasks and timers ran.
    func endOfTick()
}

/// Readiness bits as the loop reports them, whichever poller produced them (epoll's and poll's bits are
/// translated into these in the shims).
enum IOEvents {
    static let input = UInt32(CSYSTEM_IO_INPUT)
    static let output = UInt32(CSYSTEM_IO_OUTPUT)
    static let error = UInt32(CSYSTEM_IO_ERROR)
    static let hangup = UInt32(CSYSTEM_IO_HANGUP)
}
