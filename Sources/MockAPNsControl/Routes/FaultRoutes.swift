import APNsModel
import Hummingbird
import MockAPNs

/// `/api/v1/faults`: list, add and remove fault-plan rules. With a shared store (`serve --store`) a change is written
/// there first, so every instance applies it, then to this instance's plan at once.
struct FaultRoutes {
    let faults: FaultPlan
    var shared: (any SharedStateStore)?

    func register(on router: Router<ControlRequestContext>) {
        let group = router.group("api/v1/faults")
        group.get { _, _ in
            try JSONResponse.make(encoding: FaultList(faults: faults.entries.map(Self.json)))
        }
        group.post { request, _ in
            let json = try await JSONResponse.body(of: request, what: Self.example)
            let rule: FaultRule
            do {
                rule = try FaultRule(json: json)
            } catch {
                throw ControlAPIError.badRequest("The body is not a fault rule: \(error). Send \(Self.example).")
            }
            guard faults.entries.count < FaultPlan.limitRules else {
                throw ControlAPIError(.conflict, "The fault plan is full: it holds at most \(FaultPlan.limitRules) rules. "
                    + "Remove some first (DELETE /api/v1/faults/{id}, or DELETE /api/v1/faults for all).")
            }
            if let shared {
                let id = try await Self.sharing(shared) { try await $0.addFault(rule) }
                faults.replaceRules(faults.entries.map { ($0.id, $0.rule) } + [(id, rule)])
                return try JSONResponse.make(encoding: ControlBody.Created(id: id), status: .created)
            }
            guard let id = faults.addIfRoom(rule) else {
                throw ControlAPIError(.conflict, "The fault plan is full: it holds at most \(FaultPlan.limitRules) rules. "
                    + "Remove some first (DELETE /api/v1/faults/{id}, or DELETE /api/v1/faults for all).")
            }
            return try JSONResponse.make(encoding: ControlBody.Created(id: id), status: .created)
        }
        group.delete { _, _ in
            var count = faults.entries.count
            if let shared { count = try await Self.sharing(shared) { try await $0.removeAllFaults() } }
            faults.removeAll()
            return try JSONResponse.make(encoding: ControlBody.RemovedCount(removed: count))
        }
        group.delete(":id") { _, context in
            let id = try context.parameters.require("id")
            var sharedHadIt = false
            if let shared { sharedHadIt = try await Self.sharing(shared) { try await $0.removeFault(id: id) } }
            guard faults.remove(id: id) || sharedHadIt else {
                throw ControlAPIError.notFound("No fault rule has id '\(id)'; GET /api/v1/faults lists them.")
            }
            return try JSONResponse.make(encoding: ControlBody.RemovedID(removed: id))
        }
    }

    /// Runs a change on the shared store; a store that cannot take it is a 503 naming it (the change was not made).
    static func sharing<Result>(_ shared: any SharedStateStore, _ change: (any SharedStateStore) async throws -> Result)
        async throws -> Result
    {
        do {
            return try await change(shared)
        } catch {
            throw ControlAPIError(.serviceUnavailable, "The shared store \(shared.label) did not take the change, so no instance "
                + "applies it: \(error). Try again once it is reachable.")
        }
    }

    /// What a rule body looks like, for error messages.
    static let example = #"a fault rule such as {"name":"flaky","match":{"topic":"com.example.app"},"count":1,"action":{"type":"status","status":500,"reason":"InternalServerError"}}"#

    /// `{"faults": […]}`: the plan's entries, each an open object (``json(_:)``).
    private struct FaultList: Encodable {
        let faults: [JSONValue]
        enum CodingKeys: String, CodingKey { case faults }
    }

    /// `{"id", "fired", "name", "match", …}`: the entry's id and counter, then the rule's own fields.
    static func json(_ entry: FaultPlan.Entry) -> JSONValue {
        var members: [JSONValue.JSONMember] = [.init("id", .string(entry.id)), .init("fired", .integer(Int64(entry.fired)))]
        members += entry.rule.jsonValue().objectMembers ?? []
        return .object(members)
    }
}
