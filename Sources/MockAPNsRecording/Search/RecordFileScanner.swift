#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a JSON Lines record file front to back in fixed-size chunks, handing each record to a closure:
/// memory stays bounded by the chunk size and the longest line, however large the file.
enum RecordFileScanner {
    /// Calls `body` with every record in the file at `path`, in file order. Lines that are not records (a last
    /// line still being written) are skipped.
    static func scan(path: String, _ body: (RecordedRequest) -> Void) throws(RecorderError) {
        try scan(path: path, from: 0, to: nil, body)
    }

    /// Calls `body` with every record whose line starts in `start..<end` (to the file's end when `end` is nil, a last
    /// line still being written included if it parses).
    static func scan(path: String, from start: Int, to end: Int?, _ body: (RecordedRequest) -> Void) throws(RecorderError) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .cannotOpenFile(path: path, errno: errno) }
        defer { close(descriptor) }
        try lines(descriptor: descriptor, path: path, from: start, to: end) { line throws(RecorderError) in
            if !line.unterminated || end == nil, let record = try? RecordedRequest(jsonLine: line.bytes) { body(record) }
            return true
        }
    }

    /// ``RecordLineScanner`` over `start..<end` of a record file the recorder reads, in chunks small enough for the
    /// few lines a search block or a catch-up needs; returns the offset just past the last whole line.
    @discardableResult
    static func lines(descriptor: Int32, path: String, from start: Int, to end: Int?,
                      _ body: (RecordLineScanner.Line) throws(RecorderError) -> Bool) throws(RecorderError) -> Int {
        var scanner = RecordLineScanner(descriptor: descriptor, path: path, start: start, end: end)
        scanner.chunkSize = 1 << 16
        return try scanner.forEachLine(readFailed: { RecorderError.unreadableFile(path: path, errno: $0) }, body).end
    }
}
