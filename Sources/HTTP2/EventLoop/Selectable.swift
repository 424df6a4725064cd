/// Something registered with an `EventLoop` for readiness of one file descriptor.
/// Only ever called on the owning loop's thread.
protocol Selectable: AnyObject {
    /// The descriptor is ready; `events` is the epoll bit set (EPOLLIN, EPOLLOUT, EPOLLERR, EPOLLHUP).
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

/// epoll bits, read once from C.
enum EpollEvents {
    static let input: UInt32 = csystem_EPOLLIN()
    static let output: UInt32 = csystem_EPOLLOUT()
    static let error: UInt32 = csystem_EPOLLERR()
    static let hangup: UInt32 = csystem_EPOLLHUP()
}

import CSystemShims
