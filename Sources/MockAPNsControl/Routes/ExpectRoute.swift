import Hummingbird
import JSON
import MockAPNsRecording

/// `GET /api/v1/expect`: whether the recording meets an expectation, checked here so that every kit, the CLI and the
/// Swift kit say the same in the same words (``Expectation``). The filters are `/notifications`' (`token`, `topic`,
/// `push_type`, `status`, `reason`; `since` narrows which records count), `where=PATH=VALUE` (repeatable) checks the
/// payload, and at most one of `count=N`, `at_least=N` or `none=true` sets the quantity (default at least 1).
/// Answers ``ExpectationReport``'s JSON, `mockapns expect --json`'s: `{"met", "matching", "expected", "criteria",
/// "considered", "matched_seqs", "closest": [{"seq", "met", "missed"}…], "message"}`, 200 whether it is met or not.
struct ExpectRoute {
    let reader: RecordReader

    func register(on router: Router<ControlRequestContext>) {
        router.get("api/v1/expect") { request, _ in
            var filter = try RecordFilterQuery.filter(from: request)
            guard filter.limit == nil else {
                throw ControlAPIError.badRequest("'limit' does not apply to an expectation; narrow the records with 'since' or the filters.")
            }
            let query = request.formQueryParameters
            let conditions = try query.getAll("where").map { text throws in
                do { return try PayloadCondition(parsing: String(text)) } catch {
                    throw ControlAPIError.badRequest("'where': \(error).")
                }
            }
            let expectation = Expectation(filter: filter, conditions: conditions, quantity: try Self.quantity(request))
            filter = RecordFilter(since: filter.since)
            var tally = ExpectationTally(expectation)
            for record in try await reader.records(matching: filter) { tally.add(record) }
            return JSONResponse.make(tally.result().report.json(source: "the mock's recording"))
        }
    }

    /// The one quantity parameter given (default: at least 1).
    static func quantity(_ request: Request) throws -> Expectation.Quantity {
        let query = request.formQueryParameters
        func number(_ name: String) throws -> Int? {
            guard let raw = query[Substring(name)] else { return nil }
            guard let value = Int(raw), value >= 0 else {
                throw ControlAPIError.badRequest("Query parameter '\(name)' must be a whole number of at least 0; got '\(raw)'.")
            }
            return value
        }
        let count = try number("count"), atLeast = try number("at_least")
        let none = query["none"].map { $0 == "true" || $0 == "1" } ?? false
        guard [count != nil, atLeast != nil, none].filter({ $0 }).count <= 1 else {
            throw ControlAPIError.badRequest("Give only one of 'count', 'at_least' and 'none'.")
        }
        if let count { return .exactly(count) }
        if let atLeast { return .atLeast(atLeast) }
        return none ? .exactly(0) : .atLeast(1)
    }
}
