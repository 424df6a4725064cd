/// Why recording could not start or a wait on records failed.
public enum RecorderError: Error, CustomStringConvertible, Equatable {
    /// `--memory-limit` must be at least 1.
    case invalidMemoryLimit(Int)
    /// `--record-queue` must be at least 1.
    case invalidQueueLimit(Int)
    /// The record file could not be opened for appending.
    case cannotOpenFile(path: String, errno: Int32)
    /// An existing record file could not be read (to trim a torn last line and find its highest `seq`).
    case cannotReadFile(path: String, errno: Int32)
    /// The record file could not be read (to search it, index it, or catch a follower up from it).
    case unreadableFile(path: String, errno: Int32)
    /// A wait for records ended before enough arrived.
    case timedOut(expected: Int, arrived: Int, timeout: Duration)

    public var description: String {
        switch self {
        case .invalidMemoryLimit(let n):
            return "memory limit must be at least 1 record (got \(n))"
        case .invalidQueueLimit(let n):
            return "--record-queue must be at least 1 record (got \(n))"
        case .cannotOpenFile(let path, let code):
            return "cannot open record file \(path) for appending: \(String(cString: strerror(code))) — check the directory exists and is writable"
        case .cannotReadFile(let path, let code):
            return "cannot read the existing record file \(path) to continue it: \(String(cString: strerror(code)))"
        case .unreadableFile(let path, let code):
            return "cannot read the record file \(path): \(String(cString: strerror(code)))"
        case .timedOut(let expected, let arrived, let timeout):
            return "waited \(timeout) for \(expected) matching record(s), but only \(arrived) arrived"
        }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
