import APNsModel
import DeviceSimulation
import Hummingbird
import MockAPNs

/// `GET /api/v1/delivery-log/{apns-unique-id}?until=MS`: one push's states over time, as the delivery log of Apple's
/// Push Notifications Console shows them. The Console keys a push's history by the `apns-unique-id` APNs answers a
/// development push with, and so does this route, so a sender can look a push up by the ID it was given, in the
/// Console's words (device-rules §16).
///
/// Answers `{"apns_unique_id", "apns_id", "token", "states": [{"at": <ms>, "state": "<Console state>",
/// "rule": "<timeline rule>"|null}, …]}`, oldest first: "Received by APNs" at the instant the record was received
/// (no rule: APNs's acceptance is not a device rule), then each entry of the device's timeline for the push that has
/// a Console state (``DeviceTimelineEntry/consoleState``). Nothing is kept per push: the states are read from the
/// same timeline `GET /api/v1/devices/{token}/timeline` serves (``DeviceScreenRoutes/timeline(_:reader:changes:)``),
/// up to `until` (default now on the mock's clock). 404 when no record was answered with that `apns-unique-id`.
///
/// The record is looked for among the answered 200s the record routes list (the memory ring, or the newest of the
/// shared store). A push that is not to a device token (a broadcast) has no device, so only "Received by APNs". A
/// Live Activity push is placed on the device whose changes name its token; a push-to-start token declared without
/// any change has no such device, and its own token's timeline is read. Timeline entries are matched by the push's
/// `apns-id` from its receive time on, so a sender that reuses an `apns-id` sees the later push's states too.
struct DeliveryLogRoute {
    let reader: RecordReader
    let changes: DeviceChangeLog
    let clock: MockClock

    func register(on router: Router<ControlRequestContext>) {
        router.group("api/v1").get("delivery-log/:id") { request, context in
            let id = try context.parameters.require("id")
            let until = try DeviceScreenRoutes.instant(request, "until") ?? clock.nowMillis()
            guard let found = try await find(uniqueID: id) else {
                throw ControlAPIError.notFound(
                    "No recorded push was answered with apns-unique-id \(id). The mock sends one on development 200s only; "
                        + "GET /api/v1/notifications lists the records and their response.apns_unique_id.")
            }
            let (record, uniqueID) = found
            var states = [State(at: record.receivedAtMillis, state: ConsoleState.receivedByAPNs.rawValue, rule: nil)]
            var apnsID = record.response.apnsID
            if let event = record.deviceEvent(), case .push(let push) = event.kind, let token = record.deviceToken {
                apnsID = push.apnsID ?? apnsID
                let owner = push.pushType == .liveactivity ? device(holding: token) : token
                let timeline = try await DeviceScreenRoutes.timeline(owner, reader: reader, changes: changes)
                let wanted = apnsID?.lowercased()
                let own = timeline.entries(until: until).filter { entry in
                    entry.apnsID != nil && entry.apnsID?.lowercased() == wanted && entry.time >= record.receivedAtMillis
                }
                for entry in own {
                    guard let state = entry.consoleState else { continue }
                    states.append(State(at: entry.time, state: state, rule: entry.rule.rawValue))
                }
            }
            return JSONResponse.make(.object([
                .init("apns_unique_id", .string(uniqueID)),
                .init("apns_id", apnsID.map(JSONValue.string) ?? .null),
                .init("token", record.deviceToken.map { JSONValue.string($0.lowercased()) } ?? .null),
                .init("states", .array(states.map(\.json))),
            ]))
        }
    }

    /// One state of the log: when, the Console's name for it, and the timeline rule that decided it.
    private struct State {
        let at: Int64
        let state: String
        let rule: String?

        /// `{"at", "state", "rule"}`.
        var json: JSONValue {
            .object([
                .init("at", .integer(at)),
                .init("state", .string(state)),
                .init("rule", rule.map(JSONValue.string) ?? .null),
            ])
        }
    }

    /// The newest push answered 200 with `apns-unique-id` `id` (in any case), and the ID as it was answered: the
    /// mock's own, or under `serve --relay` the upstream's, which is the one the sender was given.
    private func find(uniqueID id: String) async throws -> (RecordedRequest, String)? {
        let wanted = id.lowercased()
        let answered = try await reader.records(matching: RecordFilter(status: 200))
        for record in answered.reversed() {
            for candidate in [record.response.apnsUniqueID, record.relay?.apnsUniqueID] {
                if let candidate, candidate.lowercased() == wanted { return (record, candidate) }
            }
        }
        return nil
    }

    /// The device whose timeline holds pushes to the Live Activity token `token`: the one whose changes name it
    /// (``DeviceChangeLog/relatedTokens(device:)``), else `token` itself.
    private func device(holding token: String) -> String {
        let key = token.lowercased()
        return changes.tokens.sorted().first { changes.relatedTokens(device: $0).contains(key) } ?? key
    }
}
