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
        defer { closeDescriptor(descriptor) }
        var found: [FollowedRecord] = []
        try RecordFileScanner.lines(descriptor: descriptor, path: filePath, from: index.entries[block].offset,
                                    to: index.end) { line throws(RecorderError) in
            guard let seq = RecordSeqPrefix.seq(of: line.bytes) else { return true }
            if seq > range.upperBound { return false }
            guard range.contains(seq), let record = try? RecordedRequest(jsonLine: line.bytes) else { return true }
            found.append(FollowedRecord(record: record, line: Array(line.bytes) + [UInt8(ascii: "\n")]))
            return found.count < limit
        }
        return found
    }
}

/// `close(2)`, named apart from ``Recorder/close()``.
private func closeDescriptor(_ descriptor: Int32) {
    #if canImport(Glibc)
    _ = Glibc.close(descriptor)
    #elseif canImport(Darwin)
    _ = Darwin.close(descriptor)
    #endif
}
