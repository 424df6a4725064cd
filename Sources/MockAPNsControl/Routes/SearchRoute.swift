import APNsModel
import Hummingbird
import MockAPNsRecording

/// `GET /api/v1/search?q=<query>&before=<seq>&limit=<n>`: the dashboard's search, parsed and applied here so it
/// covers the whole recording (memory ring, then the record file; with `serve --store`, every instance's records in
/// the shared store, numbered by the store-wide id). Answers
/// `{"notifications": [record…, newest first], "next_before": seq or null, "read_file": bool, "last_seq": the newest
/// record's number when the search began}`; a query that does
/// not parse answers 400 with the parser's sentence.
struct SearchRoute {
    let reader: RecordReader

    /// The page size when `limit` is absent, and the largest allowed.
    static let defaultLimit = 100
    static let maximumLimit = 1000

    func register(on router: Router<ControlRequestContext>) {
        router.group("api/v1").get("search") { request, _ in
            let parameters = request.formQueryParameters
            let query: SearchQuery
            do {
                query = try SearchQuery(parsing: parameters["q"].map(String.init) ?? "")
            } catch let error as SearchQueryError {
                throw ControlAPIError.badRequest(error.description)
            }
            let before = try Self.number(parameters["before"], name: "before", range: 1...UInt64.max)
            let limit = try Self.number(parameters["limit"], name: "limit", range: 1...UInt64(Self.maximumLimit))
            // `lastSeq` is read before the search runs: a live stream opened with `since=last_seq` then misses nothing.
            let (page, lastSeq) = try await reader.search(query, before: before, limit: limit.map { Int($0) } ?? Self.defaultLimit)
            return try JSONResponse.make(encoding: Page(notifications: page.records.map { $0.jsonValue() },
                                                        nextBefore: page.nextBefore, readFile: page.readFile, lastSeq: lastSeq))
        }
    }

    /// `{"notifications": […], "next_before": n or null, "read_file", "last_seq"}` (records are open objects).
    private struct Page: Encodable {
        let notifications: [JSONValue]
        let nextBefore: UInt64?
        let readFile: Bool
        let lastSeq: UInt64
        enum CodingKeys: String, CodingKey {
            case notifications, nextBefore = "next_before", readFile = "read_file", lastSeq = "last_seq"
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(notifications, forKey: .notifications)
            try container.encode(nextBefore, forKey: .nextBefore)   // nil: null, not absent
            try container.encode(readFile, forKey: .readFile)
            try container.encode(lastSeq, forKey: .lastSeq)
        }
    }

    private static func number(_ raw: Substring?, name: String, range: ClosedRange<UInt64>) throws -> UInt64? {
        guard let raw, !raw.isEmpty else { return nil }
        guard let value = UInt64(raw), range.contains(value) else {
            throw ControlAPIError.badRequest("Query parameter '\(name)' must be an integer from \(range.lowerBound) to \(range.upperBound); got '\(raw)'.")
        }
        return value
    }
}
