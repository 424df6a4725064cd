import Logging
@testable import MockAPNsPostgres
import PeerSupport
import PostgresNIO
import PostgresSupport
import Support
import XCTest

/// The session against a real PostgreSQL whose server ends the connection in the middle of a transaction.
final class PostgresSessionTests: PostgresTestCase {
    /// PostgresNIO drops a statement written to a connection the server has closed, and its caller would wait for
    /// ever (the store's writer then never retries, never reports the store unwritable, and `serve` cannot flush on
    /// exit). The session answers such a statement with ``PostgresConnectionLost`` instead.
    func testAStatementOnAConnectionTheServerClosedFailsInsteadOfWaitingForEver() async throws {
        let cluster = try XCTUnwrap(Self.cluster)
        let database = try cluster.createDatabase("session")
        _ = try cluster.psql("CREATE TABLE numbers (n int)", database: database)
        let logger = Logger(label: "test")
        let session = PostgresSession(url: try PostgresStoreURL(parsing: cluster.url(database: database)), logger: logger)
        let outcome = Locked<Result<Int, any Error>?>(nil)
        Task {
            do {
                let copied = try await session.run { connection in
                    try await connection.transaction(logger: logger) {
                        let pid = try await connection.query("SELECT pg_backend_pid()", logger: logger).collect()
                            .first?.decode(Int32.self) ?? 0
                        _ = try cluster.psql("SELECT pg_terminate_backend(\(pid))", database: database)
                        try await connection.closeFuture.get()
                        // The channel is closed and its handlers are gone: this COPY is never written, nor failed.
                        try await connection.copyFrom(table: "numbers", logger: logger) { writer in
                            try await writer.write(ByteBuffer(string: "1\n"))
                        }
                        return 1
                    }
                }
                outcome.withLock { $0 = .success(copied) }
            } catch {
                outcome.withLock { $0 = .failure(error) }
            }
        }
        let ended = try await Poll.until(timeout: .seconds(30)) { outcome.withLock { $0 != nil } }
        XCTAssertTrue(ended, "the statement waited for ever on the closed connection")
        let result = outcome.withLock { $0 }
        XCTAssertThrowsError(try result?.get()) { error in
            XCTAssertTrue(error is PostgresConnectionLost, "\(error)")
            XCTAssertEqual(PostgresStoreError.describing(error, store: "db").description,
                           "the connection to PostgreSQL at db was closed — is the server running?")
        }
        await session.close()
    }
}
