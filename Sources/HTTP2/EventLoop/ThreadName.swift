#if canImport(Glibc)
import CSystemShims
#elseif canImport(Darwin)
import Darwin
#endif

/// Names the calling thread, as `top -H`, `perf` and `/proc/PID/task/*/comm` show it: one platform call each
/// (a GNU extension on Linux, reached through the shims; Darwin names only the calling thread).
enum ThreadName {
    /// Sets the calling thread's name; Linux keeps at most 15 bytes and refuses a longer name, so it is cut first.
    static func set(_ name: String) {
        #if canImport(Glibc)
        _ = csystem_set_thread_name(String(name.utf8.prefix(15))!)
        #elseif canImport(Darwin)
        _ = pthread_setname_np(name)
        #endif
    }
}
