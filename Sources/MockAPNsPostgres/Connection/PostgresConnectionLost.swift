/// The connection to PostgreSQL closed while a statement was under way and PostgresNIO would not have said so
/// (``PostgresSession``'s `untilClosed`): the statement may or may not have taken effect.
struct PostgresConnectionLost: Error, CustomStringConvertible {
    var description: String { "the connection closed while a statement was under way" }
}
