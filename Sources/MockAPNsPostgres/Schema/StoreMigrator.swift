import Logging
import PostgresNIO

/// Brings a database to ``StoreSchema/latestVersion`` one instance at a time — under a session advisory lock
/// (``StoreEvents/notify``) or the `migrate` lease (``StoreEvents/poll``) — so several instances starting together (or
/// `mockapns store migrate` beside them) apply each step once; refuses a database a newer MockAPNs wrote
/// (``PostgresStoreError/newerSchema(found:supported:store:)``).
struct StoreMigrator {
    /// What `migrate` found and did.
    struct Outcome: Sendable, Equatable {
        /// The version before.
        var from: Int
        /// The version after.
        var to: Int
    }

    let label: String
    let logger: Logger
    /// How instances take turns: an advisory lock, or a lease in a table.
    var events: StoreEvents = .notify
    /// The span of the records' partitions, used only by the step that partitions them (nil: one day).
    var partitionSpanMillis: Int64?
    /// The version to stop at: the newest, but for the tests that make a store as an older mockapns left it.
    var target = StoreSchema.latestVersion

    /// How long a migrating instance holds the `migrate` lease at most (a step that rewrites a large table takes
    /// a while), and how long another waits for it.
    static let leaseDuration: Duration = .seconds(600)

    /// Migrates over `connection` (one session: the advisory lock is the session's). Returns the versions.
    func migrate(_ connection: PostgresConnection) async throws -> Outcome {
        if events == .poll { return try await migrateUnderLease(connection) }
        try await connection.query("SELECT pg_advisory_lock(\(StoreSchema.migrationLockKey))", logger: logger)
        do {
            let outcome = try await migrateLocked(connection)
            try await connection.query("SELECT pg_advisory_unlock(\(StoreSchema.migrationLockKey))", logger: logger)
            return outcome
        } catch {
            _ = try? await connection.query("SELECT pg_advisory_unlock(\(StoreSchema.migrationLockKey))", logger: logger)
            throw error
        }
    }

    private func migrateUnderLease(_ connection: PostgresConnection) async throws -> Outcome {
        try await StoreLease.createTable(connection, logger: logger)
        let lease = StoreLease(name: "migrate", holder: StoreLease.makeHolder(), duration: Self.leaseDuration)
        try await lease.acquire(connection, logger: logger, timeout: Self.leaseDuration)
        do {
            let outcome = try await migrateLocked(connection)
            try await lease.release(connection, logger: logger)
            return outcome
        } catch {
            try? await lease.release(connection, logger: logger)
            throw error
        }
    }

    /// The database's version (0 for an empty database), without changing anything.
    func currentVersion(_ connection: PostgresConnection) async throws -> Int {
        let exists = try await connection.query(
            "SELECT to_regclass(\(StoreSchema.versionTable)) IS NOT NULL", logger: logger).collect()
        guard try exists.first?.decode(Bool.self) == true else { return 0 }
        let rows = try await connection.query(
            PostgresQuery(unsafeSQL: "SELECT coalesce(max(version), 0)::bigint FROM \(StoreSchema.versionTable)"),
            logger: logger).collect()
        return Int(try rows.first?.decode(Int64.self) ?? 0)
    }

    private func migrateLocked(_ connection: PostgresConnection) async throws -> Outcome {
        try await connection.query(PostgresQuery(unsafeSQL: """
            CREATE TABLE IF NOT EXISTS \(StoreSchema.versionTable) (
                version integer PRIMARY KEY,
                applied_at timestamptz NOT NULL DEFAULT now()
            )
            """), logger: logger)
        let found = try await currentVersion(connection)
        guard found <= StoreSchema.latestVersion else {
            throw PostgresStoreError.newerSchema(found: found, supported: StoreSchema.latestVersion, store: label)
        }
        if let span = partitionSpanMillis {
            try await connection.query("SELECT set_config(\(StoreSchema.partitionSpanSetting), \(String(span)), false)", logger: logger)
        }
        for step in StoreSchema.migrations where step.version > found && step.version <= target {
            try await connection.transaction(logger: logger) {
                for statement in step.statements { try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger) }
                try await connection.query(PostgresQuery(
                    unsafeSQL: "INSERT INTO \(StoreSchema.versionTable) (version) VALUES ($1)",
                    binds: Self.binds(Int32(step.version))), logger: logger)
            }
        }
        return Outcome(from: found, to: max(found, target))
    }

    private static func binds(_ value: Int32) -> PostgresBindings {
        var binds = PostgresBindings()
        binds.append(value)
        return binds
    }
}
