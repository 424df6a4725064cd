import Foundation
#if canImport(Darwin)
import Darwin
#endif

/// What a leak test counts in its own process, read where each system keeps it.
public enum ProcessProbe {
    /// The descriptors this process has open: the entries of `/proc/self/fd` on Linux, `/dev/fd` on Darwin; -1 when
    /// neither can be read. (Listing the folder opens one descriptor itself, the same in every count.)
    public static func openDescriptors() -> Int {
        #if os(Linux)
        let folder = "/proc/self/fd"
        #else
        let folder = "/dev/fd"
        #endif
        return (try? FileManager.default.contentsOfDirectory(atPath: folder).count) ?? -1
    }

    /// ``openDescriptors()`` once it has read the same five times in a row, 20 ms apart (at most 10 s): a closed
    /// connection's socket goes away on its loop a moment after `close()` returns.
    public static func settledOpenDescriptors() async throws -> Int {
        var last = openDescriptors()
        var same = 0
        for _ in 0..<500 where same < 5 {
            try await Task.sleep(for: .milliseconds(20))
            let now = openDescriptors()
            same = now == last ? same + 1 : 0
            last = now
        }
        return last
    }

    /// The threads this process runs: the entries of `/proc/self/task` on Linux, Mach's `task_threads` on Darwin; nil
    /// when they cannot be read.
    public static func threads() -> Int? {
        #if canImport(Darwin)
        var list: thread_act_array_t?
        var count: mach_msg_type_number_t = 0
        guard task_threads(mach_task_self_, &list, &count) == KERN_SUCCESS, let list else { return nil }
        for index in 0..<Int(count) { mach_port_deallocate(mach_task_self_, list[index]) }
        vm_deallocate(mach_task_self_, vm_address_t(UInt(bitPattern: list)),
                      vm_size_t(Int(count) * MemoryLayout<thread_act_t>.stride))
        return Int(count)
        #else
        return try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").count
        #endif
    }
}
