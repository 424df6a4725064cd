#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// libc's `open`, `close` and `write`, which the appender's own `open`/`close` methods shadow, on either platform.
private enum SystemFile {
    static func open(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 {
        #if canImport(Glibc)
        Glibc.open(path, flags, mode)
        #else
        Darwin.open(path, flags, mode)
        #endif
    }

    static func close(_ fd: Int32) {
        #if canImport(Glibc)
        _ = Glibc.close(fd)
        #else
        _ = Darwin.close(fd)
        #endif
    }

    static func write(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
        #if canImport(Glibc)
        Glibc.write(fd, bytes, count)
        #else
        Darwin.write(fd, bytes, count)
        #endif
    }
}

/// Appends whole-line batches to the record file, opened `O_APPEND`, moving its end only by the bytes the kernel took.
///
/// `O_APPEND` is what makes the file safe to rotate while the server runs: every write lands at the file's real end,
/// so after logrotate's `copytruncate` (the file cut to 0 bytes under us) the next batch starts at byte 0 instead of
/// at the old offset with a hole of NUL bytes before it. Each batch first compares the file's size with the end the
/// appender expects and reports a difference (`Outcome.truncatedFrom`), so the writer can say so once. Rename
/// rotation (`mv rec.jsonl rec.jsonl.1`) is handled by `reopen()`, which the server calls on SIGHUP.
///
/// A short write is continued where it stopped. A write that fails (ENOSPC, EIO, EFBIG…) keeps the whole lines
/// the kernel took and truncates the file after the last of them, so the file never holds part of a line nor a
/// hole; the caller keeps the rest of the batch to try again. Opening a file that
/// already holds records trims a torn last line (one a crash left half written) and finds the highest `seq`, so
/// numbering continues after it (`RecordFileRecovery`).
///
/// Used by one thread (the file writer).
final class RecordFileAppender {
    /// The system calls the appender makes on its descriptor; tests replace `write` to play a full or failing disk.
    struct FileOperations: Sendable {
        /// Appends to the `O_APPEND` descriptor: bytes written (possibly fewer than asked), or -1 with the error in
        /// `errno`. `offset` is where the appender believes the file ends; the kernel appends at the real end.
        var write: @Sendable (_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int, _ offset: Int64) -> Int
        /// `ftruncate`: 0, or -1 with the error in `errno`.
        var truncate: @Sendable (_ fd: Int32, _ length: Int64) -> Int32
        /// The file's current size (`fstat`), or nil when it cannot be read.
        var size: @Sendable (_ fd: Int32) -> Int64? = { fd in
            var status = stat()
            return fstat(fd, &status) == 0 ? Int64(status.st_size) : nil
        }

        /// The real system calls.
        static let system = FileOperations(
            write: { fd, bytes, count, _ in SystemFile.write(fd, bytes, count) },
            truncate: { fd, length in ftruncate(fd, off_t(length)) })
    }

    /// What an `append` found besides its own bytes.
    struct Outcome: Equatable {
        /// The size the file had when it was smaller than the appender's end: someone cut it (logrotate's
        /// `copytruncate`), and the batch went to its new end.
        var truncatedFrom: Int64?
    }

    /// Why a batch was not written.
    struct WriteFailure: Error, Equatable {
        /// The `errno` of the failed call.
        let code: Int32
        /// What failed, as a sentence fragment naming the file and the system's message.
        let message: String
        /// How many bytes from the front of the batch are in the file (whole lines) despite the failure.
        let written: Int
    }

    let path: String
    private var fd: Int32
    private let operations: FileOperations
    /// Where the file ends: only ever moved by bytes the kernel reported written (or back by a truncation).
    private(set) var end: Int64
    /// What was found in the file at open.
    let recovery: RecordFileRecovery

    /// Opens (creating it if needed) `path` for appending after its last whole line.
    init(path: String, operations: FileOperations = .system) throws(RecorderError) {
        self.path = path
        self.operations = operations
        (fd, recovery) = try Self.open(path)
        end = recovery.wholeLinesEnd
    }

    /// Opens `path` (creating it) for appending and trims a torn tail off what it holds.
    private static func open(_ path: String) throws(RecorderError) -> (Int32, RecordFileRecovery) {
        let fd = SystemFile.open(path, O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw .cannotOpenFile(path: path, errno: errno) }
        do {
            return (fd, try RecordFileRecovery.recover(fd: fd, path: path))
        } catch {
            SystemFile.close(fd)
            throw error
        }
    }

    /// Opens `path` again and appends there from now on: after a rename rotation the old name holds what was
    /// written so far and the path is a new (created, if missing) file. A file that is already at the path is
    /// continued after its last whole line. On failure the old descriptor stays in use, so nothing is lost.
    /// Returns what was found at the path.
    @discardableResult
    func reopen() throws(RecorderError) -> RecordFileRecovery {
        let (newFD, found) = try Self.open(path)
        SystemFile.close(fd)
        fd = newFD
        end = found.wholeLinesEnd
        return found
    }

    deinit {
        SystemFile.close(fd)
    }

    /// Appends `bytes` (whole lines). On success the file ends with them (in the OS, not necessarily on the
    /// device). On failure the file ends with the whole lines of `bytes` it took (`WriteFailure.written` bytes),
    /// and the caller should keep the rest to try again later.
    func append(_ bytes: UnsafeRawBufferPointer) -> Result<Outcome, WriteFailure> {
        guard let source = bytes.baseAddress, bytes.count > 0 else { return .success(Outcome()) }
        var outcome = Outcome()
        if let size = operations.size(fd), size != end {
            // Cut (copytruncate) or appended to by someone else: O_APPEND writes at the real end either way.
            if size < end { outcome.truncatedFrom = end }
            end = size
        }
        let start = end
        var done = 0
        while done < bytes.count {
            let n = operations.write(fd, source + done, bytes.count - done, start + Int64(done))
            if n < 0 {
                let code = errno
                if code == EINTR { continue }
                return .failure(keepWholeLines(of: bytes, written: done, code: code))
            }
            if n == 0 { return .failure(keepWholeLines(of: bytes, written: done, code: EIO)) }   // no progress: an I/O error
            done += n
        }
        end = start + Int64(done)
        return .success(outcome)
    }

    /// Cuts off the partial line a failed write left behind, so the file ends with the last whole line written and
    /// the rest of the batch can be written again from there.
    private func keepWholeLines(of bytes: UnsafeRawBufferPointer, written: Int, code: Int32) -> WriteFailure {
        var message = "writing \(path) failed: \(String(cString: strerror(code)))"
        let whole = (bytes[0..<written].lastIndex(of: UInt8(ascii: "\n")) ?? -1) + 1
        let start = end
        // Never lengthen the file: if it was cut meanwhile, ftruncate would fill the gap with NUL bytes.
        let longer = (operations.size(fd) ?? .max) > start + Int64(whole)
        if longer, operations.truncate(fd, start + Int64(whole)) != 0 {
            // The file may now end in a partial line; the next start trims it (`RecordFileRecovery`).
            message += " (and cutting off the partial line failed: \(String(cString: strerror(errno))))"
        }
        end = start + Int64(whole)
        return WriteFailure(code: code, message: message, written: whole)
    }
}
