import Logging

/// The logger handed to the PostgreSQL driver: warnings and worse on stderr, so its debug lines (connection
/// settings, queries with their values) never reach a log, and the password never does.
enum StoreLogger {
    /// A `mockapns.store` logger at `warning`.
    static func make() -> Logger {
        var logger = Logger(label: "mockapns.store") { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = .warning
        return logger
    }
}
