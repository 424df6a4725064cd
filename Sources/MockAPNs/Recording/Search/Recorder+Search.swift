extension Recorder {
    /// The newest `limit` records numbered below `before` (all, when nil) that match `query`, newest first:
    /// from the memory ring, then — when the ring runs out and there is a record file — from the file, so a
    /// search covers the whole recording. Reads the disk: call it off the event loops.
    ///
    /// - Throws: ``RecorderError`` when the file cannot be read.
    public func search(_ query: SearchQuery, before: UInt64? = nil, limit: Int) throws(RecorderError) -> SearchPage {
        let limit = max(limit, 1)
        let (memory, oldestInMemory, clearedThrough) = snapshot()
        var found: [RecordedRequest] = []
        var lastLooked: UInt64?
        for record in memory.reversed() where before.map({ record.seq < $0 }) ?? true {
            lastLooked = record.seq
            let linted = record.withLint()
            if query.matches(linted) {
                found.append(linted)
                if found.count == limit { break }
            }
        }
        if found.count == limit {
            return SearchPage(records: found, nextBefore: lastLooked.flatMap { $0 > clearedThrough + 1 ? $0 : nil }, readFile: false)
        }
        // The ring is exhausted: older records are only in the file, numbered (clearedThrough, upper).
        let upper = min(before ?? oldestInMemory, oldestInMemory)
        guard let filePath, upper > clearedThrough + 1 else {
            return SearchPage(records: found, nextBefore: nil, readFile: false)
        }
        flush()
        let wanted = limit - found.count
        var older = RecordFileScanner.Tail(limit: wanted)
        try RecordFileScanner.scan(path: filePath) { record in
            guard record.seq > clearedThrough, record.seq < upper else { return }
            let linted = record.lint.isEmpty ? record.withLint() : record
            if query.matches(linted) { older.append(linted) }
        }
        let olderRecords = older.newestFirst
        found += olderRecords
        let more = older.droppedAny ? olderRecords.last?.seq : nil
        return SearchPage(records: found, nextBefore: more, readFile: true)
    }

    /// The record numbered `seq`, with lint findings: from memory while it is there, else from the record file
    /// (records older than the memory ring), so a link to any recorded push keeps working. Nil when it was never
    /// recorded, or was cleared from memory (``clear()``), as a search would not show it either. May read the disk:
    /// call it off the event loops.
    ///
    /// - Throws: ``RecorderError`` when the file cannot be read.
    public func findRecord(seq: UInt64) throws(RecorderError) -> RecordedRequest? {
        if let record = record(seq: seq) { return record }
        let (_, oldestInMemory, clearedThrough) = snapshot()
        guard let filePath, seq > clearedThrough, seq < oldestInMemory else { return nil }
        flush()
        var found: RecordedRequest?
        // A record file is appended to across runs, whose numbering starts again at 1: read it all and keep the
        // last record with this number, the one this run wrote.
        try RecordFileScanner.scan(path: filePath) { record in
            if record.seq == seq { found = record }
        }
        return found.map { $0.lint.isEmpty ? $0.withLint() : $0 }
    }
}
