import APNsModel
import DeviceSimulation
import Hummingbird
import MockAPNs

/// Virtual devices over time: what a device shows and what happened to each of its pushes, computed by
/// ``DeviceTimeline`` from the device's changes (``DeviceChangeLog``) and its recorded pushes (memory, record file or
/// the shared store, as the other record routes read them). Nothing is kept per device beyond the changes.
///
/// - `GET /api/v1/devices/{token}/screen?at=MS` → the screen at `at` (default: now on the mock's clock)
/// - `GET /api/v1/devices/{token}/timeline?until=MS` → `{"token", "until", "entries": [...]}`, oldest first
/// - `POST /api/v1/devices/{token}/changes` with `{"change": "tap", "apns_id": …, "at"?: MS}` (any ``DeviceChange``)
struct DeviceScreenRoutes {
    let reader: RecordReader
    /// Whose changes and clock these are; a change goes through ``Mock/addDeviceChange(_:token:)``.
    let mock: Mock
    var changes: DeviceChangeLog { mock.deviceChanges }
    var clock: MockClock { mock.clock }

    /// The most recent records of one device a timeline is computed from.
    static let recordLimit = 10_000

    func register(on router: Router<ControlRequestContext>) {
        let group = router.group("api/v1/devices")
        group.get(":token/screen") { request, context in
            let token = try context.parameters.require("token")
            let at = try Self.instant(request, "at") ?? clock.nowMillis()
            return JSONResponse.make(try await timeline(token).screen(at: at).json)
        }
        group.get(":token/timeline") { request, context in
            let token = try context.parameters.require("token")
            let until = try Self.instant(request, "until") ?? clock.nowMillis()
            let entries = try await timeline(token).entries(until: until)
            return try JSONResponse.make(encoding: Timeline(token: token.lowercased(), until: until,
                                                            entries: DeviceTimeline.json(entries)))
        }
        group.post(":token/changes") { request, context in
            let token = try context.parameters.require("token")
            try DeviceRoutes.validate(token: token)
            var json = try await JSONResponse.body(of: request, what: Self.example)
            if case .object(var members) = json, json["at"] == nil {
                members.append(.init("at", .integer(clock.nowMillis())))
                json = .object(members)
            }
            let event: DeviceEvent
            do {
                event = try DeviceEvent(changeJSON: json)
            } catch {
                throw ControlAPIError.badRequest("The body is not a device change: \(error). Send \(Self.example).")
            }
            try await FaultRoutes.answering { () async throws(MockOperationError) in try await mock.addDeviceChange(event, token: token) }
            return try JSONResponse.make(encoding: ChangeMade(token: token.lowercased(), change: DeviceRoutes.json(change: event)),
                                         status: .created)
        }
    }

    /// `{"token", "until", "entries": […]}` (the entries an open tree, ``DeviceTimeline/json(_:)``).
    private struct Timeline: Encodable {
        let token: String
        let until: Int64
        let entries: JSONValue
        enum CodingKeys: String, CodingKey { case token, until, entries }
    }

    /// `{"token", "change": {…}}`: the change a `POST …/changes` added (an open object, ``DeviceRoutes/json(change:)``).
    private struct ChangeMade: Encodable {
        let token: String
        let change: JSONValue
        enum CodingKeys: String, CodingKey { case token, change }
    }

    /// `token`'s timeline (``timeline(_:reader:changes:)``).
    private func timeline(_ token: String) async throws -> DeviceTimeline {
        try DeviceRoutes.validate(token: token)
        return try await Self.timeline(token, reader: reader, changes: changes)
    }

    /// `token`'s timeline from its changes and the newest ``recordLimit`` records of its token and of each related
    /// one (push-to-start and Live Activity tokens). Shared with ``DeliveryLogRoute``, so a push's delivery log is
    /// read from the very timeline this route serves.
    static func timeline(_ token: String, reader: RecordReader, changes: DeviceChangeLog) async throws -> DeviceTimeline {
        var records: [RecordedRequest] = []
        for each in [token] + changes.relatedTokens(device: token) {
            records += try await reader.records(matching: RecordFilter(token: each, limit: Self.recordLimit))
        }
        return changes.timeline(token: token, records: records)
    }

    /// A query parameter that is an instant in milliseconds since 1970, or nil when absent.
    static func instant(_ request: Request, _ name: String) throws -> Int64? {
        guard let raw = request.formQueryParameters[Substring(name)], !raw.isEmpty else { return nil }
        guard let millis = Int64(raw), millis >= 0 else {
            throw ControlAPIError.badRequest("'\(name)' is an instant in milliseconds since 1970; got '\(raw)'.")
        }
        return millis
    }

    /// What a change body looks like, for error messages.
    static let example = #"a change such as {"change":"offline"}, {"change":"online"}, {"change":"app_state","state":"background"}, {"change":"tap","apns_id":"…"} or {"change":"live_activity_token","started_by":"…","token":"…"}, with an optional "at" (milliseconds since 1970)"#
}
