import MockAPNs
import PostgresNIO

extension PostgresRecordStore {
    /// How many rows one search reads at most before it answers with what it found and where to go on
    /// (`nextBefore`): a query whose terms the indexes cannot narrow (only `-status:200`, only `has:`) still answers
    /// promptly on a table of millions.
    static let searchScanLimit = 10_000

    /// Newest first: the indexes narrow (``StoreQueryBuilder/narrow(by:)``), then ``SearchQuery/matches(_:)``
    /// decides on each row read, so the store answers every query exactly as the memory ring does.
    public func search(_ query: SearchQuery, before: UInt64?, limit: Int) async throws -> SearchPage {
        try await requireSchemaOnce()
        let limit = max(limit, 1)
        let exact = StoreQueryBuilder.isExact(query)
        let chunk = exact ? limit : min(max(limit * 2, 200), 1_000)
        var found: [RecordedRequest] = []
        var cursor = before
        var scanned = 0
        while true {
            var conditions = StoreQueryBuilder(namespace: namespace)
            conditions.narrow(by: query)
            if let cursor { conditions.add("id < ", Int64(clamping: cursor)) }
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
            if rows.count < chunk { return SearchPage(records: found, nextBefore: nil, readFile: false) }
            if scanned >= Self.searchScanLimit { return SearchPage(records: found, nextBefore: cursor, readFile: false) }
        }
    }
}
