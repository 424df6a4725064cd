import CSystemShims
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// POSIX `poll(2)` with a non-blocking pipe for wake-ups (``IOPoller``): only calls macOS has, so the macOS build
/// runs exactly this code, and Linux runs it under `MOCKAPNS_IO_DRIVER=poll` so CI tests it.
///
/// The watched set is a dense array of `pollfd` (slot 0 is the wake pipe) with a descriptor → slot table; removal
/// moves the last entry into the freed slot. `poll` scans every entry per wait, which is fine for the
/// connection counts a developer's machine sees; epoll stays the server's default on Linux.
final class PollPoller: IOPoller {
    private var entries: [pollfd]
    /// Slot in `entries` for each descriptor number (-1: not watched).
    private var slots: [Int32] = []
    private let wakeRead: Int32
    private let wakeWrite: Int32
    /// Descriptors reported by the current `wait`, so one removed meanwhile (closed by an earlier callback of the
    /// same wait, its slot reused) is not reported with another's events.
    private var reported: [(fd: Int32, events: UInt32)] = []

    init() throws(HTTP2Error) {
        var ends: [Int32] = [0, 0]
        guard csystem_wake_pipe(&ends) == 0 else { throw .system(operation: "pipe", errno: errno) }
        wakeRead = ends[0]
        wakeWrite = ends[1]
        entries = [pollfd(fd: wakeRead, events: csystem_poll_events(IOEvents.input), revents: 0)]
    }

    func add(fd: Int32, events: UInt32) throws(HTTP2Error) {
        guard fd >= 0 else { throw .system(operation: "poll(add)", errno: EBADF) }
        let index = Int(fd)
        if index >= slots.count { slots.append(contentsOf: repeatElement(-1, count: index - slots.count + 64)) }
        guard slots[index] < 0 else { throw .system(operation: "poll(add)", errno: EEXIST) }
        slots[index] = Int32(entries.count)
        entries.append(pollfd(fd: fd, events: csystem_poll_events(events), revents: 0))
    }

    func modify(fd: Int32, events: UInt32) {
        let index = Int(fd)
        guard index >= 0, index < slots.count, slots[index] >= 0 else { return }
        entries[Int(slots[index])].events = csystem_poll_events(events)
    }

    func remove(fd: Int32) {
        let index = Int(fd)
        guard index >= 0, index < slots.count, slots[index] >= 0 else { return }
        let slot = Int(slots[index])
        slots[index] = -1
        let last = entries.removeLast()
        if slot < entries.count {
            entries[slot] = last
            slots[Int(last.fd)] = Int32(slot)
        }
    }

    func wait(timeoutMilliseconds: Int32, _ ready: (Int32, UInt32) -> Void) {
        let count = entries.count
        let n = entries.withUnsafeMutableBufferPointer { csystem_poll($0.baseAddress, UInt32(count), timeoutMilliseconds) }
        guard n > 0 else { return }
        reported.removeAll(keepingCapacity: true)
        for entry in entries where entry.revents != 0 {
            reported.append((entry.fd, csystem_io_from_poll(entry.revents)))
        }
        for (fd, events) in reported {
            if fd == wakeRead {
                var scratch = (UInt64(0), UInt64(0), UInt64(0), UInt64(0))
                while withUnsafeMutableBytes(of: &scratch, { read(wakeRead, $0.baseAddress, $0.count) }) > 0 {}
                continue
            }
            // Still watched? A callback earlier in this round may have removed (and closed) it.
            let index = Int(fd)
            guard index < slots.count, slots[index] >= 0 else { continue }
            ready(fd, events)
        }
    }

    func wake() {
        var one: UInt8 = 1
        _ = write(wakeWrite, &one, 1)   // a full pipe already means "wake up"
    }

    func close() {
        #if canImport(Glibc)
        Glibc.close(wakeRead)
        Glibc.close(wakeWrite)
        #elseif canImport(Darwin)
        Darwin.close(wakeRead)
        Darwin.close(wakeWrite)
        #endif
    }
}
