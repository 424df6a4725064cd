#if os(Linux)
import CSystemShims
import Glibc

/// Linux's epoll with an eventfd for wake-ups: the poller the server runs on (``IOPoller``).
final class EpollPoller: IOPoller {
    private let epollFD: Int32
    private let wakeFD: Int32
    private let fds: UnsafeMutablePointer<Int32>
    private let events: UnsafeMutablePointer<UInt32>
    private static let maxEvents: Int32 = 256

    init() throws(HTTP2Error) {
        let ep = csystem_epoll_create()
        guard ep >= 0 else { throw .system(operation: "epoll_create1", errno: errno) }
        let ev = csystem_eventfd()
        guard ev >= 0 else {
            Glibc.close(ep)
            throw .system(operation: "eventfd", errno: errno)
        }
        epollFD = ep
        wakeFD = ev
        fds = .allocate(capacity: Int(Self.maxEvents))
        events = .allocate(capacity: Int(Self.maxEvents))
        _ = csystem_epoll_add(epollFD, wakeFD, IOEvents.input)
    }

    deinit {
        fds.deallocate()
        events.deallocate()
    }

    func add(fd: Int32, events: UInt32) throws(HTTP2Error) {
        guard csystem_epoll_add(epollFD, fd, events) == 0 else { throw .system(operation: "epoll_ctl(ADD)", errno: errno) }
    }

    func modify(fd: Int32, events: UInt32) {
        _ = csystem_epoll_modify(epollFD, fd, events)
    }

    func remove(fd: Int32) {
        _ = csystem_epoll_remove(epollFD, fd)
    }

    func wait(timeoutMilliseconds: Int32, _ ready: (Int32, UInt32) -> Void) {
        let n = csystem_epoll_wait(epollFD, fds, events, Self.maxEvents, timeoutMilliseconds)
        guard n > 0 else { return }
        for i in 0..<Int(n) {
            let fd = fds[i]
            if fd == wakeFD {
                var value: UInt64 = 0
                _ = Glibc.read(wakeFD, &value, 8)
                continue
            }
            ready(fd, events[i])
        }
    }

    func wake() {
        var one: UInt64 = 1
        _ = Glibc.write(wakeFD, &one, 8)
    }

    func close() {
        Glibc.close(epollFD)
        Glibc.close(wakeFD)
    }
}
#endif
