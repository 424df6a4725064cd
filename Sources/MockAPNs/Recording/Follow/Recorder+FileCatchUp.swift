#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension Recorder {
    /// Up to `limit` records numbered in `range`, read back from the record file with their lines as the file holds
    /// them: how a follower that fell behind the memory ring catches up. Empty without a file, or when the file no
    /// longer has them (rotated away). Reads the disk: call it off the event loops.
    ///
    /// - Throws: ``RecorderError`` when the file cannot be read.
    func fileRecords(in range: ClosedRange<UInt64>, limit: Int) throws(RecorderError) -> [FollowedRecord] {
        guard let filePath, limit > 0 else { return [] }
        flush()
        let index = try fileIndex.update(path: filePath)
        guard let block = index.entries.lastIndex(where: { $0.seq <= range.lowerBound }) ?? index.entries.indices.first
        else { return [] }
        let descriptor = open(filePath, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .cannotOpenFile(path: filePath, errno: errno) }
        defer { close(descriptor) }
        var found: [FollowedRecord] = []
        var done = false
        try RecordFileScanner.lines(descriptor: descriptor, path: filePath, from: index.entries[block].offset,
                                    to: index.end) { line, _ in
            guard !done, let seq = RecordFileIndex.seq(of: line), range.contains(seq) else {
                if let seq = RecordFileIndex.seq(of: line), seq > range.upperBound { done = true }
                return
            }
            guard let record = try? RecordedRequest(jsonLine: Array(line)) else { return }
            found.append(FollowedRecord(record: record, line: Array(line) + [UInt8(ascii: "\n")]))
            if found.count >= limit { done = true }
        }
        return found
    }
}
