#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import MockAPNsRecording

extension RecordLineScanner {
    /// ``forEachLine(readFailed:_:)`` for the inspection commands: a failed read is
    /// ``InspectError/unreadable(path:reason:)``.
    @discardableResult
    func forEachLine(_ body: (Line) throws -> Bool) throws -> Progress {
        try forEachLine(readFailed: { code -> any Error in
            InspectError.unreadable(path: path, reason: String(cString: strerror(code)))
        }, body)
    }
}
