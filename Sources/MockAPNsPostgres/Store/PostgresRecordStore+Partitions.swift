import PostgresNIO

extension PostgresRecordStore {
    /// Creates the partitions that records received at `times` need, and the one after, unless already known to
    /// exist: one statement per new span, before the batch's transaction (creating a partition locks the whole table
    /// briefly, which must not happen while this connection's COPY holds it).
    func ensurePartitions(around times: [Int64]) async throws {
        let logger = self.logger
        if partitions.withLock({ $0.span }) == nil {
            let span = try await run(timeout: writeTimeout) { connection in
                try await connection.query("SELECT value::bigint FROM mockapns_store_settings WHERE name = 'partition_span_ms'",
                                           logger: logger).collect().first?.decode(Int64.self)
            }
            partitions.withLock { $0.span = span ?? StoreSchema.defaultPartitionSpanMillis }
        }
        let missing = partitions.withLock { $0.missing(around: times) }
        guard !missing.isEmpty else { return }
        try await run(timeout: writeTimeout) { connection in
            for start in missing {
                _ = try await connection.query("SELECT mockapns_records_partition(\(start))", logger: logger).collect()
            }
        }
        partitions.withLock { $0.markKnown(missing) }
    }
}
