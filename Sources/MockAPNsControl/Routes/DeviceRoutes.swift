import APNsModel
import Hummingbird
import MockAPNs

/// `/api/v1/devices`: tell the mock that a token is unregistered, expired, limited to topics, for the
/// other environment or rate limited — and forget it again. The registry is bounded (``DeviceRegistryLimits``,
/// ``DeviceState/boundsProblem``): past it, 409 (full) or 400 (state out of bounds).
///
/// With a shared store (`serve --store`) a change is written there too, so every instance applies it.
struct DeviceRoutes {
    let devices: DeviceRegistry
    var shared: (any SharedStateStore)?

    func register(on router: Router<ControlRequestContext>) {
        let group = router.group("api/v1/devices")
        group.get { _, _ in
            let all = devices.all()
            var members: [JSONValue.JSONMember] = []
            for token in all.keys.sorted() {
                if let state = all[token] { members.append(.init(token, state.jsonValue())) }
            }
            return JSONResponse.make(.object([.init("devices", .object(members))]))
        }
        group.delete { _, _ in
            var count = devices.all().count
            if let shared { count = try await FaultRoutes.sharing(shared) { try await $0.removeAllDevices() } }
            devices.removeAll()
            return JSONResponse.make(.object([.init("removed", .integer(Int64(count)))]))
        }
        group.put(":token") { request, context in
            let token = try context.parameters.require("token")
            try Self.validate(token: token)
            let json = try await JSONResponse.body(of: request, what: Self.example)
            let state: DeviceState
            do {
                state = try DeviceState(json: json)
            } catch {
                throw ControlAPIError.badRequest("The body is not a device state: \(error). Send \(Self.example).")
            }
            do {
                try devices.set(token, state)
            } catch let error as DeviceRegistryError {
                switch error {
                case .full, .topicsFull, .ratePushesFull: throw ControlAPIError(.conflict, error.description)
                case .outOfBounds: throw ControlAPIError.badRequest(error.description)
                }
            }
            if let shared {
                // Checked against this instance's limits first (above); the store then gives it to every instance.
                try await FaultRoutes.sharing(shared) { try await $0.putDevice(token, state) }
            }
            return JSONResponse.make(.object([.init("token", .string(token)), .init("device", state.jsonValue())]))
        }
        group.delete(":token") { _, context in
            let token = try context.parameters.require("token")
            var sharedHadIt = false
            if let shared { sharedHadIt = try await FaultRoutes.sharing(shared) { try await $0.removeDevice(token) } }
            guard devices.all()[token.lowercased()] != nil || sharedHadIt else {
                throw ControlAPIError.notFound("Device \(token) has no configured state; GET /api/v1/devices lists the ones that do.")
            }
            devices.remove(token)
            return JSONResponse.make(.object([.init("removed", .string(token))]))
        }
    }

    /// What a device-state body looks like, for error messages.
    static let example = #"a device state such as {"state":"unregistered"}, {"state":"expired"}, {"state":"topics","topics":["com.example.app"]}, {"state":"otherEnvironment"} or {"state":"rateLimited","max":5,"window_seconds":60}"#

    /// Device tokens are hex; anything else in the path is a typo worth reporting.
    static func validate(token: String) throws {
        guard !token.isEmpty, token.allSatisfy(\.isHexDigit) else {
            throw ControlAPIError.badRequest("A device token is hexadecimal (0-9, a-f); '\(token)' is not.")
        }
    }
}
