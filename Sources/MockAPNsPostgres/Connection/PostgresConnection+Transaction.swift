import Logging
import PostgresNIO

extension PostgresConnection {
    /// Runs `body` between `BEGIN` and `COMMIT`; when anything throws, rolls back (a failing `ROLLBACK` is ignored:
    /// the connection is then broken and the session drops it) and rethrows. Every multi-statement change the store
    /// makes goes through here.
    func transaction<Result: Sendable>(logger: Logger, _ body: () async throws -> Result) async throws -> Result {
        _ = try await query("BEGIN", logger: logger).collect()
        do {
            let result = try await body()
            _ = try await query("COMMIT", logger: logger).collect()
            return result
        } catch {
            _ = try? await query("ROLLBACK", logger: logger).collect()
            throw error
        }
    }
}
