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

    /// Calls `body` with every record whose line starts in `start..<end` (to the file's end when `end` is nil).
    static func scan(path: String, from start: Int, to end: Int?, _ body: (RecordedRequest) -> Void) throws(RecorderError) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .cannotOpenFile(path: path, errno: errno) }
        defer { close(descriptor) }
        try lines(descriptor: descriptor, path: path, from: start, to: end, includingUnterminated: end == nil) { line, _ in
            if let record = try? RecordedRequest(jsonLine: Array(line)) { body(record) }
        }
    }

    /// Calls `body` with each whole (newline-terminated) line starting in `start..<end` of the open file, without
    /// its newline, and its offset. A last line without a newline (still being written, or a hand-made file's) is
    /// passed only with `includingUnterminated`.
    static func lines(descriptor: Int32, path: String, from start: Int, to end: Int?, includingUnterminated: Bool = false,
                      _ body: (ArraySlice<UInt8>, Int) -> Void) throws(RecorderError) {
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        var line: [UInt8] = []
        var position = start        // file offset of chunk[0]
        var lineStart = start
        while end.map({ lineStart < $0 }) ?? true {
            let count = chunk.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, off_t(position)) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            var from = 0
            for index in 0..<count where chunk[index] == UInt8(ascii: "\n") {
                if let end, lineStart >= end { return }
                line.append(contentsOf: chunk[from..<index])
                body(line[...], lineStart)
                line.removeAll(keepingCapacity: true)
                from = index + 1
                lineStart = position + from
            }
            line.append(contentsOf: chunk[from..<count])
            position += count
        }
        if includingUnterminated, !line.isEmpty { body(line[...], lineStart) }
    }
}
