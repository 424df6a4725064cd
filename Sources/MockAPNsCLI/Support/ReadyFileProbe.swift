import APNsModel
import Foundation
#if canImport(Darwin)
import Darwin
#endif

/// What `mockapns wait` checks: whether a ready file is there and complete, and whether a process still runs.
enum ReadyFileProbe {
    /// The file's bytes when it holds a JSON object with an `apns_url` (serve writes it whole, by rename) and,
    /// when `pid` is given, that `pid`: a file left by an earlier run that the new `serve` has not removed yet
    /// (it may not have started) names another process, so it is not taken for the new server's.
    static func readyContents(at path: String, pid: Int32? = nil) -> Data? {
        guard let data = FileManager.default.contents(atPath: path),
              let object = try? JSONValue.parse(Array(data)),
              object["apns_url"]?.stringValue != nil else { return nil }
        if let pid, object["pid"]?.integerValue != Int64(pid) { return nil }
        return data
    }

    /// Whether `pid` names a live process that is not a zombie (a child `serve` that exited but was not reaped
    /// by the shell yet still answers `kill(pid, 0)`). The process's state comes from `/proc/PID/stat` on Linux and
    /// from the kernel's process table (`sysctl` `KERN_PROC_PID`) on Darwin; where neither answers, a zombie counts
    /// as running until it is reaped.
    static func isRunning(pid: Int32) -> Bool {
        guard kill(pid, 0) == 0 || errno == EPERM else { return false }
        return !isZombie(pid: pid)
    }

    #if os(Linux)
    private static func isZombie(pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return false }
        return stat[stat.index(after: close)...].split(separator: " ").first == "Z"
    }
    #elseif canImport(Darwin)
    private static func isZombie(pid: Int32) -> Bool {
        var mib: [Int32] = [CTL_KERN, KERN_PROC, KERN_PROC_PID, pid]
        var info = kinfo_proc()
        var size = MemoryLayout<kinfo_proc>.stride
        guard sysctl(&mib, UInt32(mib.count), &info, &size, nil, 0) == 0, size > 0 else { return false }
        return Int32(info.kp_proc.p_stat) == SZOMB
    }
    #else
    private static func isZombie(pid: Int32) -> Bool { false }
    #endif
}
