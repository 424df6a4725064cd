#if canImport(Glibc)
import Glibc
#endif

/// Appends bytes to the record file, whole 4 KiB blocks with `O_DIRECT` and the last partial block through
/// the page cache.
///
/// Why: at full load the record file grows by hundreds of MB a second, and a buffered `write(2)` copies every
/// byte into newly allocated page-cache pages: measured on the 2-core development VM, that copy cost more CPU
/// than encoding the records (≈ 1–2 µs per 1.3 KB record). A direct write hands whole blocks to the device
/// without that copy. The tail that does not fill a block yet is written through the page cache, so after every
/// `append` the file ends exactly at the last byte appended (readers and `wc -l` see whole lines); when more
/// bytes complete that block, it is written again, directly, with the same bytes in front.
///
/// File systems without `O_DIRECT` (tmpfs, some overlays) refuse it at `open` or at the first write; the
/// appender then writes everything through the page cache, as before. Used by one thread (the file writer).
final class RecordFileAppender {
    private static let block = 4096

    /// Linux's `O_DIRECT`, which Swift's Glibc module does not export (it sits behind `_GNU_SOURCE`); its value
    /// differs between architectures. Elsewhere: nil, and every byte goes through the page cache.
    private static var directFlag: Int32? {
        #if os(Linux) && arch(x86_64)
        return 0o40000
        #elseif os(Linux) && arch(arm64)
        return 0o200000
        #else
        return nil
        #endif
    }

    private let path: String
    /// Buffered descriptor: the tail, and everything when direct I/O is unavailable.
    private let bufferedFD: Int32
    /// Direct descriptor, or -1 when direct I/O is off.
    private var directFD: Int32
    /// Block-aligned staging: the bytes of the current partial block first, then what is being appended.
    private var staging: UnsafeMutableRawPointer
    private var capacity: Int
    /// Where the file ends (what it held at start plus everything appended).
    private var end: Int64 = 0
    /// The first failure, reported once.
    private(set) var failure: String?

    /// Opens (creating it if needed) `path` for appending after its current end.
    init(path: String) throws(RecorderError) {
        self.path = path
        bufferedFD = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o644)
        guard bufferedFD >= 0 else { throw .cannotOpenFile(path: path, errno: errno) }
        directFD = Self.directFlag.map { open(path, O_WRONLY | O_CLOEXEC | $0) } ?? -1
        capacity = 1 << 20
        var memory: UnsafeMutableRawPointer?
        guard posix_memalign(&memory, Self.block, capacity) == 0, let memory else {
            Glibc.close(bufferedFD)
            throw .cannotOpenFile(path: path, errno: ENOMEM)
        }
        staging = memory
        // Start after what the file already holds; a partial last block is read back so it can be rewritten whole.
        var info = stat()
        end = fstat(bufferedFD, &info) == 0 ? Int64(info.st_size) : 0
        let tail = Int(end % Int64(Self.block))
        if tail > 0 && directFD >= 0 {
            let reader = open(path, O_RDONLY | O_CLOEXEC)
            let read = reader >= 0 ? pread(reader, staging, tail, off_t(end - Int64(tail))) : -1
            if reader >= 0 { Glibc.close(reader) }
            if read != tail { stopDirectIO() }   // cannot rebuild the block: append through the page cache only
        }
    }

    deinit {
        close()
        staging.deallocate()
    }

    /// Appends `bytes`; on return the file ends with them (in the OS, not necessarily on the device).
    func append(_ bytes: UnsafeRawBufferPointer) {
        guard let source = bytes.baseAddress, bytes.count > 0, bufferedFD >= 0 else { return }
        guard directFD >= 0 else {
            writeBuffered(source, count: bytes.count, at: end)
            end += Int64(bytes.count)
            return
        }
        let tail = Int(end % Int64(Self.block))
        let blockStart = end - Int64(tail)
        reserve(tail + bytes.count)
        (staging + tail).copyMemory(from: source, byteCount: bytes.count)
        let total = tail + bytes.count
        let whole = total - total % Self.block
        end = blockStart + Int64(total)
        if whole > 0 {
            guard writeDirect(count: whole, at: blockStart) else {
                // Direct I/O refused: what is staged, and everything after it, goes through the page cache.
                stopDirectIO()
                writeBuffered(staging, count: total, at: blockStart)
                return
            }
            if total > whole { staging.copyMemory(from: staging + whole, byteCount: total - whole) }
        }
        if total > whole { writeBuffered(staging, count: total - whole, at: blockStart + Int64(whole)) }
    }

    /// Closes both descriptors. Idempotent.
    func close() {
        if directFD >= 0 { Glibc.close(directFD); directFD = -1 }
        if bufferedFD >= 0 { Glibc.close(bufferedFD) }
    }

    private func reserve(_ needed: Int) {
        guard needed > capacity else { return }
        var newCapacity = capacity
        while newCapacity < needed { newCapacity *= 2 }
        var memory: UnsafeMutableRawPointer?
        guard posix_memalign(&memory, Self.block, newCapacity) == 0, let memory else { fatalError("out of memory") }
        memory.copyMemory(from: staging, byteCount: Int(end % Int64(Self.block)))
        staging.deallocate()
        staging = memory
        capacity = newCapacity
    }

    private func stopDirectIO() {
        if directFD >= 0 { Glibc.close(directFD) }
        directFD = -1
    }

    /// Writes the first `count` staged bytes (whole blocks) at `offset` (block-aligned) with direct I/O; false
    /// when the file system refuses direct I/O before anything was written.
    private func writeDirect(count: Int, at offset: Int64) -> Bool {
        var done = 0
        while done < count {
            let n = pwrite(directFD, staging + done, count - done, off_t(offset + Int64(done)))
            if n < 0 {
                if errno == EINTR { continue }
                return done == 0 ? false : report("direct write")
            }
            done += n
            if done % Self.block != 0 { return report("short direct write") }
        }
        return true
    }

    private func writeBuffered(_ bytes: UnsafeRawPointer, count: Int, at offset: Int64) {
        var done = 0
        while done < count {
            let n = pwrite(bufferedFD, bytes + done, count - done, off_t(offset + Int64(done)))
            if n < 0 {
                if errno == EINTR { continue }
                _ = report("write")
                return
            }
            done += n
        }
    }

    /// Remembers the first failure (the writer reports it); returns true so a direct write that got partway is
    /// not retried through the page cache at a wrong offset.
    private func report(_ operation: String) -> Bool {
        if failure == nil { failure = "\(operation) to \(path) failed: \(String(cString: strerror(errno)))" }
        return true
    }
}
