import MockAPNs
import PostgresNIO

/// The `WHERE` clause of a records query and its bound values: the namespace always, then one condition per set field
/// of a ``RecordFilter`` (each on an indexed column). Values are always bound (`$n`), never spliced into the SQL.
struct StoreQueryBuilder {
    var parts: [String]
    /// The values, `$1` first.
    private(set) var binds = PostgresBindings()

    /// Conditions for `namespace` alone.
    init(namespace: String) {
        binds.append(namespace)
        parts = ["namespace = $1"]
    }

    /// The conditions joined with `AND`.
    var conditions: String { parts.joined(separator: " AND ") }

    /// Binds `value` and returns its placeholder (`$n`), for a condition written by hand.
    mutating func bind<Value: PostgresDynamicTypeEncodable>(_ value: Value) -> String {
        binds.append(value)
        return "$\(binds.count)"
    }

    /// Adds `prefix $n` (e.g. `"topic = "`) with `value` bound as `$n`.
    mutating func add<Value: PostgresDynamicTypeEncodable>(_ prefix: String, _ value: Value) {
        let placeholder = bind(value)
        parts.append(prefix + placeholder)
    }

    /// Adds `column = value` answered by the index on `lower(column)`.
    private mutating func addFolded(_ column: String, _ value: String) {
        let placeholder = bind(value)
        parts.append("lower(\(column)) = lower(\(placeholder)) AND \(column) = \(placeholder)")
    }

    /// Adds the conditions of `filter` (all but `limit`, which the caller applies).
    mutating func add(filter: RecordFilter) {
        if let token = filter.token { add("token = ", token.lowercased()) }
        // Topic and reason through their case-folded indexes, the exact value rechecked on the rows found.
        if let topic = filter.topic { addFolded("topic", topic) }
        if let pushType = filter.pushType { add("push_type = ", pushType) }
        if let status = filter.status { add("status = ", Int32(clamping: status)) }
        if let reason = filter.reason { addFolded("reason", reason) }
        if let since = filter.since { add("id > ", Int64(clamping: since)) }
    }
}
