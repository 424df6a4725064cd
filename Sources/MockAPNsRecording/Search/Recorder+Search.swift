extension Recorder {
    /// The newest `limit` records numbered below `before` (all, when nil) that match `query`, newest first:
    /// from the memory ring, then — when the ring runs out and there is a record file — from the file, so a
    /// search covers the whole recording. In the file it reads only the blocks of ``RecordFileIndex`` that hold the
    /// page (the first search indexes the file once). Reads the disk: call it off the
    /// event loops.
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
        // Newest block first, back through the index, until one match more than the page needs (so `nextBefore`
        // is set only when there is an older match) or past the cleared records.
        let index = try fileIndex.update(path: filePath)
        var older: [RecordedRequest] = []
        var block = index.entries.lastIndex { $0.seq < upper }
        while let current = block {
            let start = index.entries[current].offset
            let end = current + 1 < index.entries.count ? index.entries[current + 1].offset : index.end
            var matches: [RecordedRequest] = []
            try RecordFileScanner.scan(path: filePath, from: start, to: end) { record in
                guard record.seq > clearedThrough, record.seq < upper else { return }
                let linted = record.withLint()
                if query.matches(linted) { matches.append(linted) }
            }
            older += matches.reversed()
            if older.count > wanted || index.entries[current].seq <= clearedThrough + 1 { break }
            block = current > 0 ? current - 1 : nil
        }
        let more = older.count > wanted ? older[wanted - 1].seq : nil
        found += older.prefix(wanted)
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
        // Read the one block of the index that can hold `seq`.
        let index = try fileIndex.update(path: filePath)
        guard let block = index.entries.lastIndex(where: { $0.seq <= seq }) else { return nil }
        let end = block + 1 < index.entries.count ? index.entries[block + 1].offset : index.end
        var found: RecordedRequest?
        try RecordFileScanner.scan(path: filePath, from: index.entries[block].offset, to: end) { record in
            if record.seq == seq { found = record }
        }
        return found.map { $0.withLint() }
    }
}
