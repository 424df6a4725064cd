import Logging
import PostgresNIO

/// Brings a database to ``StoreSchema/latestVersion`` under a session advisory lock, so several instances starting
/// together (or `mockapns store migrate` beside them) apply each step once; refuses a database a newer MockAPNs
/// wrote (``PostgresStoreError/newerSchema(found:supported:store:)``).
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

    /// Migrates over `connection` (one session: the advisory lock is the session's). Returns the versions.
    func migrate(_ connection: PostgresConnection) async throws -> Outcome {
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
        for step in StoreSchema.migrations where step.version > found {
            try await connection.query("BEGIN", logger: logger)
            do {
                for statement in step.statements { try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger) }
                try await connection.query(PostgresQuery(
                    unsafeSQL: "INSERT INTO \(StoreSchema.versionTable) (version) VALUES ($1)",
                    binds: Self.binds(Int32(step.version))), logger: logger)
                try await connection.query("COMMIT", logger: logger)
            } catch {
                _ = try? await connection.query("ROLLBACK", logger: logger)
                throw error
            }
        }
        return Outcome(from: found, to: max(found, StoreSchema.latestVersion))
    }

    private static func binds(_ value: Int32) -> PostgresBindings {
        var binds = PostgresBindings()
        binds.append(value)
        return binds
    }
}
