import Hummingbird
import MockAPNsRecording

/// Reads the notification filters (`token`, `topic`, `push_type`, `status`, `reason`, `since`,
/// `limit`) from a query string into a ``RecordFilter``; bad numbers answer 400.
enum RecordFilterQuery {
    /// The filter the query asks for; absent parameters match everything.
    static func filter(from request: Request) throws -> RecordFilter {
        let query = request.formQueryParameters
        func text(_ name: String) -> String? {
            guard let value = query[Substring(name)], !value.isEmpty else { return nil }
            return String(value)
        }
        func number<N: FixedWidthInteger>(_ name: String, _ type: N.Type, minimum: N) throws -> N? {
            guard let raw = text(name) else { return nil }
            guard let value = N(raw), value >= minimum else {
                throw ControlAPIError.badRequest("Query parameter '\(name)' must be an integer of at least \(minimum); got '\(raw)'.")
            }
            return value
        }
        return RecordFilter(
            token: text("token"),
            topic: text("topic"),
            pushType: text("push_type"),
            status: try number("status", Int.self, minimum: 0),
            reason: text("reason"),
            since: try number("since", UInt64.self, minimum: 0),
            limit: try number("limit", Int.self, minimum: 0)
        )
    }
}
