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
    private var connection: PostgresConnection?
    private var connecting: Task<PostgresConnection, any Error>?
    private var nextID = 0

    /// A session for `url`; nothing is opened until it is used.
    init(url: PostgresStoreURL, logger: Logger) {
        self.url = url
        self.logger = logger
    }

    /// Runs `body` on the connection (opening it first when needed). A connection that failed is dropped, so the
    /// next call opens a new one. Errors are PostgresNIO's, or ``PostgresConnectionLost`` when the connection closed
    /// under `body`; callers turn them into ``PostgresStoreError``.
    func run<Result: Sendable>(_ body: @escaping @Sendable (PostgresConnection) async throws -> Result) async throws -> Result {
        let open = try await current()
        do {
            return try await Self.untilClosed(open) { try await body(open) }
        } catch {
            if open.isClosed || Self.breaksConnection(error) {
                if connection === open { connection = nil }
                try? await open.close()
            }
            throw error
        }
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
        let configuration = try Self.configuration(for: url)
        let id = nextID, logger = self.logger
        let task = Task { try await PostgresConnection.connect(configuration: configuration, id: id, logger: logger) }
        connecting = task
        defer { connecting = nil }
        let opened = try await task.value
        connection = opened
        return opened
    }

    /// `body`'s result, or ``PostgresConnectionLost`` as soon as `connection` closes, whichever comes first.
    ///
    /// Why: PostgresNIO 1.33 hands a statement to the connection's channel without asking to hear of a failed write,
    /// so a statement issued just after the server closed the connection (a restart in the middle of a transaction)
    /// is dropped and its caller waits for ever. The store's writer would then neither retry nor report the store
    /// unwritable, and `serve` could never flush on exit. Such a `body` is abandoned: it stays suspended, one per
    /// connection that closed under a statement, holding only what it captured.
    private static func untilClosed<Result: Sendable>(_ connection: PostgresConnection,
                                                      _ body: @escaping @Sendable () async throws -> Result) async throws -> Result {
        let outcome = FirstOutcome<Result>()
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
    static func configuration(for url: PostgresStoreURL) throws -> PostgresConnection.Configuration {
        let tls: PostgresConnection.Configuration.TLS
        switch url.tls {
        case .disable: tls = .disable
        case .prefer: tls = .prefer(try NIOSSLContext(configuration: .makeClientConfiguration()))
        case .require: tls = .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
        }
        var configuration = PostgresConnection.Configuration(
            host: url.host, port: url.port, username: url.user, password: url.password, database: url.database, tls: tls)
        configuration.options.connectTimeout = .seconds(5)
        return configuration
    }
}
