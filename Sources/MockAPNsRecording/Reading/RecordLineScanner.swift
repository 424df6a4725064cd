#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a recording front to back in fixed-size chunks and hands over one line at a time, so memory stays at one
/// chunk plus the longest line however large the file is: the one reader of record files, for the recorder's search,
/// index and catch-up, and for `mockapns list`, `stats`, `expect` and `export` on a recording of millions of pushes.
///
/// A trailing `\r` is dropped, blank lines (spaces and tabs only) are skipped but counted, and the text after the
/// last newline (a line still being written) is handed over separately, flagged as unterminated, with the line number
/// it would have.
package struct RecordLineScanner {
    /// One line of the file.
    package struct Line {
        /// The line's bytes, without its newline (and `\r`); valid only during the callback.
        package let bytes: UnsafeBufferPointer<UInt8>
        /// 1-based line number, blank lines included.
        package let number: Int
        /// Byte offset of the line's start in the file.
        package let offset: Int
        /// True for the text after the last newline: a torn or still-growing last line.
        package let unterminated: Bool

        package init(bytes: UnsafeBufferPointer<UInt8>, number: Int, offset: Int, unterminated: Bool) {
            self.bytes = bytes
            self.number = number
            self.offset = offset
            self.unterminated = unterminated
        }
    }

    /// Bytes read per `read(2)`: large enough that system calls cost nothing next to parsing.
    package static let defaultChunkSize = 1 << 20

    /// The open file.
    package let descriptor: Int32
    /// Its path, for messages.
    package let path: String
    /// Where reading starts (a line start); line numbers count from here.
    package var start = 0
    /// The number of the line at ``start`` (a caller reading a growing file in steps keeps numbering across them).
    package var firstLineNumber = 1
    /// Bytes read per `read(2)`.
    package var chunkSize = Self.defaultChunkSize
    /// Where reading stops: lines starting at or after it are not handed over (the file's end when nil).
    package var end: Int?

    /// Scans `descriptor` (opened from `path`) from `start` (a line start) to `end` (the file's end when nil).
    package init(descriptor: Int32, path: String, start: Int = 0, end: Int? = nil) {
        self.descriptor = descriptor
        self.path = path
        self.start = start
        self.end = end
    }

    /// How far a scan got: the offset just past the last whole line read, and how many whole lines that was (blank
    /// ones included; not the unterminated last line).
    package struct Progress: Sendable, Equatable {
        package let end: Int
        package let lines: Int

        package init(end: Int, lines: Int) {
            self.end = end
            self.lines = lines
        }
    }

    /// Calls `body` with every non-blank line from ``start`` on, in file order, until it returns false or the file
    /// (or ``end``) ends. Returns how far it got.
    /// - Throws: what `body` throws, or what `readFailed` makes of `errno` when the file cannot be read.
    @discardableResult
    package func forEachLine<Failure: Error>(readFailed: (Int32) -> Failure,
                                             _ body: (Line) throws(Failure) -> Bool) throws(Failure) -> Progress {
        var chunk = [UInt8](repeating: 0, count: chunkSize)
        var carry: [UInt8] = []          // the start of a line that crosses chunks
        var position = start             // file offset of chunk[0]
        var lineNumber = firstLineNumber - 1
        var lineStart = start
        while true {
            let count = chunk.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, off_t(position)) }
            if count < 0 {
                if errno == EINTR { continue }
                throw readFailed(errno)
            }
            if count == 0 { break }
            let stop = try chunk.withUnsafeBufferPointer { buffer throws(Failure) -> Bool in
                var from = 0
                while let newline = Self.newline(in: buffer, from: from, to: count) {
                    if let end, lineStart >= end { return true }
                    lineNumber += 1
                    let keepGoing: Bool
                    if carry.isEmpty {
                        keepGoing = try Self.deliver(UnsafeBufferPointer(rebasing: buffer[from..<newline]), number: lineNumber,
                                                     offset: lineStart, body)
                    } else {
                        carry.append(contentsOf: buffer[from..<newline])
                        keepGoing = try carry.withUnsafeBufferPointer { line throws(Failure) in
                            try Self.deliver(line, number: lineNumber, offset: lineStart, body)
                        }
                        carry = []
                    }
                    from = newline + 1
                    lineStart = position + from
                    if !keepGoing { return true }
                }
                if from < count { carry.append(contentsOf: buffer[from..<count]) }
                return false
            }
            if stop { return Progress(end: lineStart, lines: lineNumber - firstLineNumber + 1) }
            position += count
        }
        if !carry.isEmpty, end.map({ lineStart < $0 }) ?? true {
            _ = try carry.withUnsafeBufferPointer { buffer throws(Failure) in
                try body(Line(bytes: buffer, number: lineNumber + 1, offset: lineStart, unterminated: true))
            }
        }
        return Progress(end: lineStart, lines: lineNumber - firstLineNumber + 1)
    }

    /// Hands a terminated line to `body` unless it is blank; strips one trailing `\r`.
    private static func deliver<Failure: Error>(_ raw: UnsafeBufferPointer<UInt8>, number: Int, offset: Int,
                                                _ body: (Line) throws(Failure) -> Bool) throws(Failure) -> Bool {
        var bytes = raw
        if bytes.last == UInt8(ascii: "\r") { bytes = UnsafeBufferPointer(rebasing: bytes.dropLast()) }
        if bytes.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }) { return true }
        return try body(Line(bytes: bytes, number: number, offset: offset, unterminated: false))
    }

    /// The index of the next `\n` in `buffer[from..<to]`.
    package static func newline(in buffer: UnsafeBufferPointer<UInt8>, from: Int, to: Int) -> Int? {
        guard let base = buffer.baseAddress, from < to,
              let found = memchr(base + from, Int32(UInt8(ascii: "\n")), to - from) else { return nil }
        return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
    }
}
