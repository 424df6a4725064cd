import Foundation
import Logging
import PostgresNIO

/// A named lease in `mockapns_leases`: at most one holder at a time until it releases or its expiry passes, so an
/// instance that died holding one does not block the others for longer than the lease's duration. What
/// ``StoreEvents/poll`` uses instead of advisory locks; it needs only a table, a primary key and
/// `INSERT … ON CONFLICT DO UPDATE … WHERE`, which every PostgreSQL-compatible engine has.
struct StoreLease: Sendable {
    /// The lease's name: `migrate` or `prune`.
    let name: String
    /// Who asks: unique per process and store object, so two stores in one process do not share a lease.
    let holder: String
    /// How long a lease lasts unless released (a holder that dies blocks the others at most this long).
    let duration: Duration

    /// A fresh holder name: the host, the process and a random part.
    static func makeHolder() -> String {
        "\(ProcessInfo.processInfo.hostName):\(ProcessInfo.processInfo.processIdentifier):\(UUID().uuidString.prefix(8))"
    }

    /// Creates the lease table if it is missing (before the migrations, which need it to take turns). Two instances
    /// creating it at once may see a duplicate error from the catalogue; the table then exists.
    static func createTable(_ connection: PostgresConnection, logger: Logger) async throws {
        do {
            try await connection.query("""
                CREATE TABLE IF NOT EXISTS mockapns_leases (
                    name text PRIMARY KEY,
                    holder text NOT NULL,
                    expires_at timestamptz NOT NULL
                )
                """, logger: logger)
        } catch let error as PSQLError where error.sqlState == "23505" || error.sqlState == "42P07" {
            // created by another instance between our check and our insert
        }
    }

    /// Takes the lease if it is free, expired or already ours; whether it is ours now.
    func tryAcquire(_ connection: PostgresConnection, logger: Logger) async throws -> Bool {
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        let rows = try await connection.query("""
            INSERT INTO mockapns_leases (name, holder, expires_at) VALUES (\(name), \(holder), now() + make_interval(secs => \(seconds)))
            ON CONFLICT (name) DO UPDATE SET holder = EXCLUDED.holder, expires_at = EXCLUDED.expires_at
            WHERE mockapns_leases.expires_at < now() OR mockapns_leases.holder = EXCLUDED.holder
            RETURNING holder
            """, logger: logger).collect()
        return !rows.isEmpty
    }

    /// Waits for the lease (polling every 100 ms) until `timeout`; throws ``PostgresStoreError/unavailable(_:)``
    /// naming the holder when it never frees.
    func acquire(_ connection: PostgresConnection, logger: Logger, timeout: Duration) async throws {
        let clock = ContinuousClock(), deadline = clock.now + timeout
        while try await !tryAcquire(connection, logger: logger) {
            guard clock.now < deadline else {
                let holder = try await connection.query("SELECT holder FROM mockapns_leases WHERE name = \(name)", logger: logger)
                    .collect().first?.decode(String.self) ?? "nobody"
                throw PostgresStoreError.unavailable("the store's \(name) lease is held by \(holder) and did not free within "
                    + "\(timeout); it expires by itself, or delete its row from mockapns_leases")
            }
            try await Task.sleep(for: .milliseconds(100))
        }
    }

    /// Gives the lease up if it is still ours.
    func release(_ connection: PostgresConnection, logger: Logger) async throws {
        try await connection.query("DELETE FROM mockapns_leases WHERE name = \(name) AND holder = \(holder)", logger: logger)
    }
}
