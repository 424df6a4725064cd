/// The connection to PostgreSQL closed while a statement was under way and PostgresNIO would not have said so
/// (``PostgresSession``'s `untilClosed`): the statement may or may not have taken effect.
struct PostgresConnectionLost: Error, CustomStringConvertible {
    var description: String { "the connection closed while a statement was under way" }
}

/// A statement of the store's writer made no progress within its watchdog's time (``PostgresSession/run(timeout:_:)``):
/// the server stopped answering with the connection still open. The connection is closed; the statement may or may
/// not have taken effect, which the writer's retry sorts out (``PostgresRecordStore/uncertainBatch``).
struct PostgresStatementStalled: Error, CustomStringConvertible {
    /// How long it waited.
    var after: Duration
    /// Server processes of abandoned connections still running (0: this statement is the one that stalled).
    var backendsLeft = 0
    var description: String {
        backendsLeft == 0 ? "no answer within \(after) in the middle of a statement"
            : "\(backendsLeft) server process(es) of an abandoned connection still running"
    }
}
