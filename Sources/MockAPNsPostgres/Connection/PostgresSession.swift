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
    /// next call opens a new one. Errors are PostgresNIO's; callers turn them into ``PostgresStoreError``.
    func run<Result: Sendable>(_ body: @Sendable (PostgresConnection) async throws -> Result) async throws -> Result {
        let open = try await current()
        do {
            return try await body(open)
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
