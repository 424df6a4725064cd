import MockAPNs
import PostgresNIO

extension PostgresRecordStore {
    /// How many rows one search reads at most before it answers with what it found and where to go on
    /// (`nextBefore`): a query whose terms the indexes cannot narrow (only `-status:200`, only `has:`) still answers
    /// promptly on a table of millions.
    static let searchScanLimit = 10_000

    /// Newest first: the indexes narrow (``StoreQueryBuilder/narrow(by:)``), then ``SearchQuery/matches(_:)``
    /// decides on each row read, so the store answers every query exactly as the memory ring does.
    ///
    /// A query with words (`title:`, `body:`, bare words) first finds the search blocks whose words hold every piece of
    /// them, then reads only those blocks' ranges of records, a window of ids at a time: all ids above the oldest
    /// block read in a step are covered by the blocks read (any block not read ends below it).
    public func search(_ query: SearchQuery, before: UInt64?, limit: Int) async throws -> SearchPage {
        try await requireSchemaOnce()
        let limit = max(limit, 1)
        let exact = StoreQueryBuilder.isExact(query)
        let chunk = exact ? limit : min(max(limit * 2, 200), 1_000)
        let pieces = StoreQueryBuilder.blockPieces(of: query)
        var found: [RecordedRequest] = []
        var cursor = before
        var scanned = 0
        var steps = 0
        while true {
            var conditions = StoreQueryBuilder(namespace: namespace)
            conditions.narrow(by: query)
            if let cursor { conditions.add("id < ", Int64(clamping: cursor)) }
            var window: SearchBlockWindow?
            if !pieces.isEmpty {
                steps += 1
                let blocks = try await searchBlocks(holding: pieces, below: cursor)
                guard !blocks.ranges.isEmpty else { return SearchPage(records: found, nextBefore: nil, readFile: false) }
                conditions.add(ranges: blocks.ranges)
                if let floor = blocks.floor { conditions.add("id > ", floor) }
                window = blocks
            }
            let sql = "SELECT id, line, instance FROM mockapns_records WHERE \(conditions.conditions) ORDER BY id DESC LIMIT \(chunk)"
            let rows = try await rows(PostgresQuery(unsafeSQL: sql, binds: conditions.binds))
            for row in rows {
                let record = try Self.record(from: row)
                scanned += 1
                cursor = record.seq
                let linted = record.withLint()
                guard query.matches(linted) else { continue }
                found.append(linted)
                if found.count == limit { return SearchPage(records: found, nextBefore: record.seq, readFile: false) }
            }
            if rows.count < chunk {
                // This window is read: go on below it, or stop when it reached the oldest block.
                guard let floor = window?.floor else { return SearchPage(records: found, nextBefore: nil, readFile: false) }
                cursor = UInt64(floor) + 1
            }
            if scanned >= Self.searchScanLimit || steps >= 1_000 { return SearchPage(records: found, nextBefore: cursor, readFile: false) }
        }
    }

    /// The newest search blocks of the namespace whose words hold every one of `pieces`, starting below `cursor`:
    /// their id ranges (merged) and the floor above which they cover every match (nil when every such block was read).
    private func searchBlocks(holding pieces: [String], below cursor: UInt64?) async throws -> SearchBlockWindow {
        var count = searchBlocksPerStep
        while true {
            var query = StoreQueryBuilder(namespace: namespace)
            for piece in pieces { query.add("words LIKE ", StoreQueryBuilder.likePattern(piece)) }
            if let cursor { query.add("first_id < ", Int64(clamping: cursor)) }
            let sql = "SELECT first_id, last_id FROM mockapns_search_blocks WHERE \(query.conditions) ORDER BY last_id DESC LIMIT \(count)"
            let blocks = try await rows(PostgresQuery(unsafeSQL: sql, binds: query.binds)).map { try $0.decode((Int64, Int64).self) }
            let window = SearchBlockWindow(blocks: blocks, complete: blocks.count < count)
            // A floor at or above the cursor leaves nothing to read: more blocks overlap the cursor than were read.
            if let floor = window.floor, let cursor, floor + 1 >= Int64(clamping: cursor) {
                count *= 4
                continue
            }
            return window
        }
    }
}

/// The blocks one step of a word search reads.
struct SearchBlockWindow {
    /// Their id ranges, overlapping ones merged, lowest first.
    var ranges: [ClosedRange<Int64>]
    /// Every matching record above this id lies in `ranges`; nil when the blocks read were all there were.
    var floor: Int64?

    init(blocks: [(first: Int64, last: Int64)], complete: Bool) {
        var merged: [ClosedRange<Int64>] = []
        for block in blocks.sorted(by: { $0.first < $1.first }) where block.first <= block.last {
            if let last = merged.last, block.first <= last.upperBound {
                merged[merged.count - 1] = last.lowerBound...max(last.upperBound, block.last)
            } else {
                merged.append(block.first...block.last)
            }
        }
        ranges = merged
        floor = complete ? nil : blocks.map(\.last).min()
    }
}
