#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import MockAPNsRecording

/// Reads a recording from its end towards its start in fixed-size chunks, newest line first: `list --limit N` on a
/// recording of millions of pushes reads only the last few blocks instead of the whole file.
///
/// Lines are split as ``RecordLineScanner`` splits them (the text after the last newline comes first, flagged as
/// unterminated; blank lines are skipped). Line numbers are not known reading backwards: ``lineNumber(at:)``
/// counts them for an error message.
struct RecordLineBackwardScanner {
    /// The open file.
    let descriptor: Int32
    /// Its path, for messages.
    let path: String
    /// Where the file ends (its size when the scan starts).
    let end: Int

    /// Calls `body` with each non-blank line, newest first, until it returns false or the file's start is reached.
    /// The ``RecordLineScanner/Line/number`` it passes is 0 (unknown).
    /// - Throws: what `body` throws, or ``InspectError/unreadable(path:reason:)`` when the file cannot be read.
    func forEachLine(_ body: (RecordLineScanner.Line) throws -> Bool) throws {
        var chunk = [UInt8](repeating: 0, count: RecordLineScanner.defaultChunkSize)
        var tail: [UInt8] = []        // the end of a line whose start is in an earlier chunk
        var position = end            // file offset where the bytes read so far begin
        var terminated = false        // whether `tail` is followed by a newline
        while position > 0 {
            let count = min(RecordLineScanner.defaultChunkSize, position)
            let read = try readFully(into: &chunk, count: count, at: position - count)
            guard read == count else {
                throw InspectError.unreadable(path: path, reason: "it shrank while being read (was it cut or replaced?)")
            }
            position -= count
            let base = position
            let stop = try chunk.withUnsafeBufferPointer { buffer -> Bool in
                var upper = count              // the current line ends at buffer[upper] (or continues in `tail`)
                while let newline = Self.lastNewline(in: buffer, before: upper) {
                    let keepGoing: Bool
                    if tail.isEmpty {
                        keepGoing = try deliver(UnsafeBufferPointer(rebasing: buffer[(newline + 1)..<upper]), offset: base + newline + 1,
                                                terminated: terminated || upper < count, body)
                    } else {
                        tail.insert(contentsOf: buffer[(newline + 1)..<upper], at: 0)
                        keepGoing = try tail.withUnsafeBufferPointer {
                            try deliver($0, offset: base + newline + 1, terminated: terminated, body)
                        }
                        tail = []
                    }
                    terminated = true
                    upper = newline
                    if !keepGoing { return true }
                }
                if upper > 0 { tail.insert(contentsOf: buffer[0..<upper], at: 0) }
                return false
            }
            if stop { return }
        }
        if end > 0 {
            _ = try tail.withUnsafeBufferPointer { try deliver($0, offset: 0, terminated: terminated, body) }
        }
    }

    /// Hands one line to `body`: a terminated line loses its `\r` and is skipped when blank.
    private func deliver(_ raw: UnsafeBufferPointer<UInt8>, offset: Int, terminated: Bool,
                         _ body: (RecordLineScanner.Line) throws -> Bool) rethrows -> Bool {
        guard terminated else {
            if raw.isEmpty { return true }
            return try body(RecordLineScanner.Line(bytes: raw, number: 0, offset: offset, unterminated: true))
        }
        var bytes = raw
        if bytes.last == UInt8(ascii: "\r") { bytes = UnsafeBufferPointer(rebasing: bytes.dropLast()) }
        if bytes.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }) { return true }
        return try body(RecordLineScanner.Line(bytes: bytes, number: 0, offset: offset, unterminated: false))
    }

    /// The 1-based number of the line starting at `offset`: newlines before it, plus one (for error messages only;
    /// it reads the file up to `offset`).
    func lineNumber(at offset: Int) throws -> Int {
        var number = 1
        var chunk = [UInt8](repeating: 0, count: RecordLineScanner.defaultChunkSize)
        var position = 0
        while position < offset {
            let count = try readFully(into: &chunk, count: min(RecordLineScanner.defaultChunkSize, offset - position), at: position)
            guard count > 0 else { break }
            number += chunk[0..<count].reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
            position += count
        }
        return number
    }

    /// Reads `count` bytes at `offset` into `buffer` (fewer only at the end of the file).
    private func readFully(into buffer: inout [UInt8], count: Int, at offset: Int) throws -> Int {
        var done = 0
        while done < count {
            let got = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress! + done, count - done, off_t(offset + done)) }
            if got < 0 {
                if errno == EINTR { continue }
                throw InspectError.unreadable(path: path, reason: String(cString: strerror(errno)))
            }
            if got == 0 { break }
            done += got
        }
        return done
    }

    /// The index of the last `\n` in `buffer[0..<before]`.
    static func lastNewline(in buffer: UnsafeBufferPointer<UInt8>, before: Int) -> Int? {
        var index = before - 1
        while index >= 0 {
            if buffer[index] == UInt8(ascii: "\n") { return index }
            index -= 1
        }
        return nil
    }
}
