import APNsModel
import Hummingbird
import JSON
import MockAPNsRecording

/// `/api/v1/notifications` (list, one, clear) and `/api/v1/stream` (server-sent events).
struct NotificationRoutes {
    let reader: RecordReader
    let streams: LiveStreams
    /// The webhooks (`serve --webhook`): a record's detail says what each did with it.
    var webhooks: [WebhookStatistics] = []

    func register(on router: Router<ControlRequestContext>) {
        let api = router.group("api/v1")
        api.get("notifications") { request, _ in
            let filter = try RecordFilterQuery.filter(from: request)
            let records = try await reader.records(matching: filter)
            return try JSONResponse.make(encoding: NotificationList(notifications: records.map { $0.jsonValue() }))
        }
        api.get("notifications/:id") { _, context in
            let id = try context.parameters.require("id")
            let record = try await record(named: id)
            var json = record.jsonValue()
            if !webhooks.isEmpty, case .object(var members) = json {
                let deliveries = webhooks.map { Self.delivery($0, seq: record.seq) }
                members.append(.init("webhooks", try JSONValueEncoder().encode(deliveries)))
                json = .object(members)
            }
            return JSONResponse.make(json)
        }
        api.delete("notifications") { _, _ in
            let count = try await reader.clear()
            return try JSONResponse.make(encoding: Cleared(cleared: count))
        }
        api.get("stream") { request, _ in
            try await stream(request)
        }
    }

    /// The record with sequence number (with a store: store-wide id) `id`, or else with `apns-id` `id`; 404 when
    /// neither exists.
    private func record(named id: String) async throws -> RecordedRequest {
        if let found = try await reader.record(id) { return found }
        throw ControlAPIError.notFound(
            "No recorded notification has sequence number or apns-id '\(id)'. List them with GET /api/v1/notifications."
        )
    }

    /// `id: <seq>` and `data: <record json>` per record after `since` (from now when not given) that passes the
    /// list's filters, read by position: what memory no longer holds comes from the record file, else an
    /// `event: gap` names the skipped range; `: keep-alive` comments while there is nothing to send. With
    /// `newest=N` each read sends only the newest N records waiting and an `event: elided` for the rest.
    private func stream(_ request: Request) async throws -> Response {
        var filter = try RecordFilterQuery.filter(from: request)
        let start: UInt64
        if let since = filter.since { start = since } else { start = try await reader.newestID() }
        filter.since = nil
        filter.limit = nil
        var newest: Int?
        if let raw = request.formQueryParameters["newest"] {
            guard let value = Int(raw), (1...10_000).contains(value) else {
                throw ControlAPIError.badRequest("Query parameter 'newest' must be an integer from 1 to 10000; got '\(raw)'.")
            }
            newest = value
        }
        let streams = self.streams, liveFilter = filter, keepNewest = newest
        if let store = reader.store {
            return Self.eventStream(StoreLiveFeed.body(store: store, after: start, filter: liveFilter, streams: streams))
        }
        let body = ResponseBody { writer in
            var feed = streams.feed(after: start, filter: liveFilter, newest: keepNewest)
            try await writer.write(ByteBuffer(string: ": mockapns live stream\n\n"))
            while let bytes = await feed.next() {
                try await writer.write(bytes)
            }
            try await writer.finish(nil)
        }
        return Self.eventStream(body)
    }

    private static func eventStream(_ body: ResponseBody) -> Response {
        Response(status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-cache"], body: body)
    }

    /// `{"notifications": […]}`: records, each an open object (``RecordedRequest/jsonValue()``).
    private struct NotificationList: Encodable {
        let notifications: [JSONValue]
        enum CodingKeys: String, CodingKey { case notifications }
    }

    /// `{"cleared": n}`.
    private struct Cleared: Encodable {
        let cleared: Int
        enum CodingKeys: String, CodingKey { case cleared }
    }

    /// `{"webhook", "url", "state", "attempts"?, "error"?}`: what one webhook did with one record.
    struct WebhookDelivery: Encodable {
        let webhook: Int
        let url: String
        let state: String
        var attempts: Int?
        var error: String?
        enum CodingKeys: String, CodingKey { case webhook, url, state, attempts, error }
    }

    /// What webhook `hook` did with the record numbered `seq` (`queued`, `sending`, `delivered`, `failed`, `dropped`,
    /// `not matched`, or `unknown` once it is too old to be kept).
    static func delivery(_ hook: WebhookStatistics, seq: UInt64) -> WebhookDelivery {
        func answer(_ state: String, attempts: Int? = nil, error: String? = nil) -> WebhookDelivery {
            WebhookDelivery(webhook: hook.index, url: hook.target, state: state, attempts: attempts, error: error)
        }
        switch hook.state(seq: seq) {
        case .sending(let attempt)?: return answer("sending", attempts: attempt)
        case .delivered(let attempts)?: return answer("delivered", attempts: attempts)
        case .failed(let why)?: return answer("failed", error: why)
        case .dropped?: return answer("dropped")
        case .notMatched?: return answer("not matched")
        case nil: return answer(hook.isWaiting(seq: seq) ? "queued" : "unknown")
        }
    }
}
