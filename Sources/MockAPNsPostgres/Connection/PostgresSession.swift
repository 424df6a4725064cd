import Logging
import PostgresNIO

/// One connection to the store's database, opened on first use and opened again after it breaks (the database
/// restarted, the network dropped): the store's writer retries a failed batch every 100 ms, so a database that comes
/// back is used again without a restart of the mock.
///
/// One connection, not a pool: the writer appends one batch at a time, and a single connection reports why it
/// cannot connect (refused, bad password) at once, where a pool retries quietly for a minute.
actor PostgresSession {
    private let url: PostgresStoreURL
    private let logger: Logger
    /// What `pg_stat_activity` shows for its connections (`application_name`), so an operator can tell them apart.
    private let applicationName: String
    private var connection: PostgresConnection?
    private var connecting: Task<PostgresConnection, any Error>?
    private var nextID = 0
    /// The server process of the open connection (`pg_backend_pid()`).
    private var backendPID: Int32?
    /// Server processes of connections abandoned by the watchdog, until they are known to be gone: a stopped backend
    /// resumed later may still finish the statement it was in.
    private var stalledBackends: Set<Int32> = []

    /// A session for `url`, its connections named `applicationName` on the server; nothing is opened until it is used.
    init(url: PostgresStoreURL, logger: Logger, applicationName: String = "mockapns") {
        self.url = url
        self.logger = logger
        self.applicationName = applicationName
    }

    /// Runs `body` on the connection (opening it first when needed). A connection that failed is dropped, so the
    /// next call opens a new one. Errors are PostgresNIO's, ``PostgresConnectionLost`` when the connection closed
    /// under `body`, or ``PostgresStatementStalled`` when `timeout` is given and `body` has not finished by then;
    /// callers turn them into ``PostgresStoreError``.
    ///
    /// The timeout is the store writer's watchdog: a server that stops answering in the middle of a statement (a
    /// stopped or frozen backend, a network that drops packets without a reset) keeps the connection open, and
    /// nothing else would ever fail the statement. The connection is then closed (PostgreSQL rolls back what it
    /// had not committed) and the next call opens a new one.
    func run<Result: Sendable>(timeout: Duration? = nil,
                               _ body: @escaping @Sendable (PostgresConnection) async throws -> Result) async throws -> Result {
        let open = try await current()
        do {
            return try await Self.untilClosed(open, timeout: timeout) { try await body(open) }
        } catch {
            if error is PostgresStatementStalled, connection === open, let backendPID { stalledBackends.insert(backendPID) }
            if open.isClosed || Self.breaksConnection(error) {
                if connection === open {
                    connection = nil
                    backendPID = nil
                }
                try? await open.close()
            }
            throw error
        }
    }

    /// Ends the server processes of connections the watchdog abandoned (`pg_terminate_backend`), and throws
    /// ``PostgresStatementStalled`` while one of them is still there: until it is gone, whether its last statement
    /// commits is not settled, so a batch it was writing cannot be checked yet (a stopped backend ends only once
    /// it runs again).
    func endStalledBackends(timeout: Duration) async throws {
        guard !stalledBackends.isEmpty else { return }
        let pids = Array(stalledBackends)
        let logger = self.logger
        let remaining = try await run(timeout: timeout) { connection in
            _ = try await connection.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE pid = ANY(\(pids))",
                                           logger: logger).collect()
            let rows = try await connection.query("SELECT pid FROM pg_stat_activity WHERE pid = ANY(\(pids))",
                                                  logger: logger).collect()
            return try Set(rows.map { try $0.decode(Int32.self) })
        }
        stalledBackends = remaining
        if !remaining.isEmpty { throw PostgresStatementStalled(after: timeout, backendsLeft: remaining.count) }
    }

    /// Closes the connection, if open.
    func close() async {
        connecting?.cancel()
        if let connection { try? await connection.close() }
        connection = nil
    }

    private func current() async throws -> PostgresConnection {
        if let connection, !connection.isClosed { return connection }
        if let connecting { return try await connecting.value }
        nextID += 1
        let configuration = try Self.configuration(for: url, applicationName: applicationName)
        let id = nextID, logger = self.logger
        let task = Task { try await PostgresConnection.connect(configuration: configuration, id: id, logger: logger) }
        connecting = task
        defer { connecting = nil }
        let opened = try await task.value
        connection = opened
        backendPID = try? await opened.query("SELECT pg_backend_pid()", logger: logger).collect().first?.decode(Int32.self)
        return opened
    }

    /// `body`'s result, or ``PostgresConnectionLost`` as soon as `connection` closes, whichever comes first.
    ///
    /// Why: PostgresNIO 1.33 hands a statement to the connection's channel without asking to hear of a failed write,
    /// so a statement issued just after the server closed the connection (a restart in the middle of a transaction)
    /// is dropped and its caller waits for ever. The store's writer would then neither retry nor report the store
    /// unwritable, and `serve` could never flush on exit. Such a `body` is abandoned: it stays suspended, one per
    /// connection that closed under a statement, holding only what it captured.
    private static func untilClosed<Result: Sendable>(_ connection: PostgresConnection, timeout: Duration?,
                                                      _ body: @escaping @Sendable () async throws -> Result) async throws -> Result {
        let outcome = FirstOutcome<Result>()
        let watchdog = timeout.map { timeout in
            Task {
                try await Task.sleep(for: timeout)
                outcome.settle(.failure(PostgresStatementStalled(after: timeout)))
            }
        }
        defer { watchdog?.cancel() }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Result, any Error>) in
                outcome.wait(continuation)
                outcome.attach(Task {
                    do {
                        outcome.settle(.success(try await body()))
                    } catch {
                        outcome.settle(.failure(error))
                    }
                })
                connection.closeFuture.whenComplete { _ in outcome.settle(.failure(PostgresConnectionLost())) }
            }
        } onCancel: {
            outcome.cancel()
        }
    }

    /// Whether `error` means the connection is unusable (rather than one statement failing).
    private static func breaksConnection(_ error: any Error) -> Bool {
        guard let error = error as? PSQLError else { return true }
        return error.code != .server
    }

    /// PostgresNIO's settings for `url`.
    static func configuration(for url: PostgresStoreURL, applicationName: String = "mockapns") throws
        -> PostgresConnection.Configuration
    {
        let tls: PostgresConnection.Configuration.TLS
        switch url.tls {
        case .disable: tls = .disable
        case .prefer: tls = .prefer(try NIOSSLContext(configuration: .makeClientConfiguration()))
        case .require: tls = .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
        }
        var configuration = PostgresConnection.Configuration(
            host: url.host, port: url.port, username: url.user, password: url.password, database: url.database, tls: tls)
        configuration.options.connectTimeout = .seconds(5)
        configuration.options.additionalStartupParameters = [("application_name", applicationName)]
        return configuration
    }
}
