#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What opening an existing record file found: where its last whole line ends, the highest `seq` in it, and how
/// many bytes of a torn last line (a crash mid-write) were cut off.
///
/// Why: appending straight after a torn line would glue the next record onto it (both lost to a JSON reader), and
/// numbering again from 1 would put duplicate `seq`s in a file whose lines promise to be in `seq` order.
struct RecordFileRecovery: Equatable {
    /// Offset just after the file's last newline (0 for an empty file or one without any).
    var wholeLinesEnd: Int64 = 0
    /// The highest `seq` among the whole lines (0 when none has one).
    var highestSeq: UInt64 = 0
    /// Bytes after the last newline that were cut off.
    var trimmedBytes: Int64 = 0

    /// Reads the file behind `fd` once, front to back, and cuts a torn tail off it.
    static func recover(fd: Int32, path: String) throws(RecorderError) -> RecordFileRecovery {
        var result = RecordFileRecovery()
        let chunkSize = 1 << 20
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 16)
        defer { buffer.deallocate() }
        // The scan keeps the start of the line in progress when a chunk ends inside it (a prefix long enough for
        // `{"seq":` and a 20-digit number).
        var lineHead: [UInt8] = []
        var lineStart: Int64 = 0
        var offset: Int64 = 0
        while true {
            let n = pread(fd, buffer.baseAddress, chunkSize, off_t(offset))
            if n < 0 {
                if errno == EINTR { continue }
                throw .cannotReadFile(path: path, errno: errno)
            }
            if n == 0 { break }
            let bytes = UnsafeRawBufferPointer(rebasing: buffer[0..<n])
            var index = 0
            while index < n {
                let headRoom = max(0, Self.headLength - lineHead.count)
                let newline = bytes[index..<n].firstIndex(of: UInt8(ascii: "\n"))
                let lineEndInChunk = newline ?? n
                if headRoom > 0 {
                    lineHead.append(contentsOf: bytes[index..<min(lineEndInChunk, index + headRoom)])
                }
                guard let newline else { break }
                result.highestSeq = max(result.highestSeq, seq(inLineStartingWith: lineHead) ?? 0)
                lineHead.removeAll(keepingCapacity: true)
                lineStart = offset + Int64(newline) + 1
                index = newline + 1
            }
            offset += Int64(n)
        }
        result.wholeLinesEnd = lineStart
        result.trimmedBytes = offset - lineStart
        if result.trimmedBytes > 0 {
            guard ftruncate(fd, off_t(lineStart)) == 0 else { throw .cannotReadFile(path: path, errno: errno) }
        }
        return result
    }

    private static let prefix = Array("{\"seq\":".utf8)
    private static let headLength = prefix.count + 20

    /// The number after `{"seq":` at the start of a line (how the recorder writes every line), if there is one.
    static func seq(inLineStartingWith head: [UInt8]) -> UInt64? {
        guard head.count > prefix.count, head.starts(with: prefix) else { return nil }
        var value: UInt64 = 0
        var digits = 0
        for byte in head[prefix.count...] {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { break }
            let (times, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times.addingReportingOverflow(UInt64(byte - UInt8(ascii: "0")))
            guard !overflow1, !overflow2 else { return nil }
            value = sum
            digits += 1
        }
        return digits > 0 ? value : nil
    }
}
