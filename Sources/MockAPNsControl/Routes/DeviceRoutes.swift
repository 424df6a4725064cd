import APNsModel
import DeviceSimulation
import Hummingbird
import MockAPNs

/// `/api/v1/devices`: tell the mock that a token is unregistered, expired, limited to topics, for the
/// other environment or rate limited — and forget it again. The registry is bounded (``DeviceRegistryLimits``,
/// ``DeviceState/boundsProblem``): past it, 409 (full) or 400 (state out of bounds).
///
/// The same `PUT` also changes the virtual device (``DeviceUpdate``: online, app state, settings); those changes and
/// the device's accepted pushes make the screen and timeline served by ``DeviceScreenRoutes``.
///
/// Changes go through the mock's own operations (``Mock/updateDevice(_:_:)``): with a shared store (`serve --store`)
/// a state and the virtual device's changes are written there too, so every instance applies them (push-to-start
/// tokens stay with the instance that was told).
struct DeviceRoutes {
    let mock: Mock

    func register(on router: Router<ControlRequestContext>) {
        let group = router.group("api/v1/devices")
        group.get { _, _ in
            let all = mock.devices.all()
            var members: [JSONValue.JSONMember] = []
            for token in all.keys.sorted() {
                if let state = all[token] { members.append(.init(token, state.jsonValue())) }
            }
            return JSONResponse.make(.object([.init("devices", .object(members))]))
        }
        group.delete { _, _ in
            let count = try await FaultRoutes.answering { () async throws(MockOperationError) in try await mock.removeAllDevices() }
            return try JSONResponse.make(encoding: ControlBody.RemovedCount(removed: count))
        }
        group.put(":token") { request, context in
            let token = try context.parameters.require("token")
            try Self.validate(token: token)
            let json = try await JSONResponse.body(of: request, what: Self.example)
            let update: DeviceUpdate
            do {
                update = try DeviceUpdate(json: json, now: mock.clock.nowMillis())
            } catch {
                throw ControlAPIError.badRequest("The body is not a device update: \(error). Send \(Self.example).")
            }
            try await FaultRoutes.answering { () async throws(MockOperationError) in try await mock.updateDevice(token, update) }
            return try JSONResponse.make(encoding: Updated(
                token: token, device: update.state?.jsonValue(),
                changes: update.changes.isEmpty ? nil : update.changes.map(Self.json(change:)),
                pushToStartTokens: update.pushToStartTokens?.map { $0.lowercased() }))
        }
        group.delete(":token") { _, context in
            let token = try context.parameters.require("token")
            guard try await FaultRoutes.answering({ () async throws(MockOperationError) in try await mock.removeDevice(token) }) else {
                throw ControlAPIError.notFound("Device \(token) has no configured state; GET /api/v1/devices lists the ones that do.")
            }
            return try JSONResponse.make(encoding: ControlBody.RemovedID(removed: token))
        }
    }

    /// The answer to a `PUT`: `{"token", "device"?, "changes"?, "push_to_start_tokens"?}`, each member there only when
    /// the update set it (the state and the changes are open objects).
    private struct Updated: Encodable {
        let token: String
        let device: JSONValue?
        let changes: [JSONValue]?
        let pushToStartTokens: [String]?
        enum CodingKeys: String, CodingKey { case token, device, changes, pushToStartTokens = "push_to_start_tokens" }
    }

    /// What a device-update body looks like, for error messages.
    static let example = #"a device state such as {"state":"unregistered"}, {"state":"expired"}, {"state":"topics","topics":["com.example.app"]}, {"state":"otherEnvironment"} or {"state":"rateLimited","max":5,"window_seconds":60}, and/or a change of the virtual device such as {"online":false}, {"offline_until":1800003600000}, {"app_state":"background"} or {"settings":{"background_budget_per_hour":2}} (optional "at": milliseconds since 1970), and/or its Live Activity {"push_to_start_tokens":["…"]}"#

    /// A change event as `{"at": …, "change": …, …}`.
    static func json(change event: DeviceEvent) -> JSONValue {
        guard case .change(let change) = event.kind else { return .null }
        return .object([.init("at", .integer(event.time))] + change.jsonMembers)
    }

    /// Device tokens are hex; anything else in the path is a typo worth reporting.
    static func validate(token: String) throws {
        guard !token.isEmpty, token.allSatisfy(\.isHexDigit) else {
            throw ControlAPIError.badRequest("A device token is hexadecimal (0-9, a-f); '\(token)' is not.")
        }
    }
}
