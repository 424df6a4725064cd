import MockAPNsRecording

/// Finds the record numbered `seq` in a recording by bisecting the file on byte offsets: the recording contract
/// keeps lines in rising `seq` order, so `show SEQ` reads a few blocks of a million-line file instead of all of it.
///
/// It answers nil whenever the file does not look like one rising sequence where it probed (a line without a
/// number, a torn line, the number missing): the caller then reads the file front to back, as before.
struct RecordSeqSearch {
    /// The open recording.
    let descriptor: Int32
    /// Its path, for messages.
    let path: String
    /// Its size when the search starts.
    let size: Int

    /// Below this many bytes the remaining range is read line by line.
    static let linearRange = 256 << 10
    /// Bytes read per probe.
    static let probeChunk = 64 << 10

    /// The record numbered `target`, or nil when bisection did not find it.
    /// - Throws: ``InspectError/unreadable(path:reason:)`` when the file cannot be read.
    func find(_ target: UInt64) throws -> RecordedRequest? {
        var lower = 0          // the wanted line, if present, starts in lower..<upper
        var upper = size
        while upper - lower > Self.linearRange {
            let middle = lower + (upper - lower) / 2
            guard let probe = try firstLine(from: middle, before: upper) else {
                upper = middle
                continue
            }
            guard let seq = probe.seq else { return nil }
            if seq == target { return try? RecordedRequest(jsonLine: probe.bytes) }
            if seq < target { lower = probe.offset + 1 } else { upper = probe.offset }
        }
        var found: RecordedRequest?
        var scanner = RecordLineScanner(descriptor: descriptor, path: path, start: max(0, lower - 1), end: upper)
        scanner.chunkSize = Self.probeChunk
        try scanner.forEachLine { line in
            guard line.offset >= lower else { return true }   // the end of a line that started before the range
            guard RecordSeqPrefix.seq(of: line.bytes) == target else { return true }
            found = try? RecordedRequest(jsonLine: line.bytes)
            return false
        }
        return found
    }

    /// A line found by a probe.
    private struct Probe {
        let offset: Int
        let seq: UInt64?
        let bytes: [UInt8]
    }

    /// The first non-blank line starting at or after `offset` and before `limit`.
    private func firstLine(from offset: Int, before limit: Int) throws -> Probe? {
        var scanner = RecordLineScanner(descriptor: descriptor, path: path, start: max(0, offset - 1), end: limit)
        scanner.chunkSize = Self.probeChunk
        var probe: Probe?
        try scanner.forEachLine { line in
            guard line.offset >= offset else { return true }
            let seq = line.unterminated ? nil : RecordSeqPrefix.seq(of: line.bytes)
            probe = Probe(offset: line.offset, seq: seq, bytes: Array(line.bytes))
            return false
        }
        return probe
    }
}
