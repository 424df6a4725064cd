import APNsModel
import Hummingbird
import MockAPNs

/// `/api/v1/notifications` (list, one, clear) and `/api/v1/stream` (server-sent events).
struct NotificationRoutes {
    let recorder: Recorder
    let streams: LiveStreams

    func register(on router: Router<ControlRequestContext>) {
        let api = router.group("api/v1")
        api.get("notifications") { request, _ in
            let filter = try RecordFilterQuery.filter(from: request)
            let records = recorder.records(matching: filter)
            return JSONResponse.make(.object([.init("notifications", .array(records.map { $0.jsonValue() }))]))
        }
        api.get("notifications/:id") { _, context in
            let id = try context.parameters.require("id")
            return JSONResponse.make(try await record(named: id).jsonValue())
        }
        api.delete("notifications") { _, _ in
            let count = recorder.records(matching: RecordFilter()).count
            recorder.clear()
            return JSONResponse.make(.object([.init("cleared", .integer(Int64(count)))]))
        }
        api.get("stream") { request, _ in
            try stream(request)
        }
    }

    /// The record with sequence number `id` (in memory or, past the memory ring, in the record file), or else with
    /// `apns-id` `id` (in memory); 404 when neither exists.
    private func record(named id: String) async throws -> RecordedRequest {
        if let seq = UInt64(id) {
            let recorder = self.recorder
            // May read the record file: off the server's event loops.
            let found = try await Task.detached { () throws(RecorderError) -> RecordedRequest? in
                try recorder.findRecord(seq: seq)
            }.value
            if let found { return found }
        }
        if let found = recorder.record(apnsID: id) ?? recorder.record(apnsID: id.lowercased()) { return found }
        throw ControlAPIError.notFound(
            "No recorded notification has sequence number or apns-id '\(id)'. List them with GET /api/v1/notifications."
        )
    }

    /// `data: <record json>\n\n` per record: first those after `since` (when given), then live ones,
    /// each through the same filters as the list; `: keep-alive` comments in between.
    private func stream(_ request: Request) throws -> Response {
        var filter = try RecordFilterQuery.filter(from: request)
        let live = streams.open()
        var replay = filter
        replay.limit = nil
        let backlog = filter.since == nil ? [] : recorder.records(matching: replay)
        filter.limit = nil
        let liveFilter = filter
        let body = ResponseBody { writer in
            try await writer.write(ByteBuffer(string: ": mockapns live stream\n\n"))
            var lastSeq: UInt64 = 0
            for record in backlog {
                try await writer.write(ByteBuffer(string: Self.event(record)))
                lastSeq = max(lastSeq, record.seq)
            }
            for await event in live {
                switch event {
                case .record(let record) where record.seq > lastSeq && liveFilter.matches(record):
                    try await writer.write(ByteBuffer(string: Self.event(record)))
                case .record:
                    continue
                case .heartbeat:
                    try await writer.write(ByteBuffer(string: ": keep-alive\n\n"))
                }
            }
            try await writer.finish(nil)
        }
        return Response(
            status: .ok,
            headers: [.contentType: "text/event-stream", .cacheControl: "no-cache"],
            body: body
        )
    }

    /// One server-sent event carrying `record`.
    static func event(_ record: RecordedRequest) -> String {
        "id: \(record.seq)\ndata: \(record.jsonValue().jsonText())\n\n"
    }
}
