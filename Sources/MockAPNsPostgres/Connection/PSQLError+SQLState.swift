import PostgresNIO

extension PSQLError {
    /// The server's SQLSTATE for an error the server answered (nil when the connection, not a statement, failed).
    var sqlState: String? {
        code == .server ? serverInfo?[.sqlState] : nil
    }
}
