import APNsModel
import Hummingbird
import MockAPNs

/// `/api/v1/faults`: list, add and remove fault-plan rules, through the mock's own operations (``Mock/addFault(_:)``:
/// with a shared store, `serve --store`, a change is written there first, so every instance applies it).
struct FaultRoutes {
    let mock: Mock

    func register(on router: Router<ControlRequestContext>) {
        let group = router.group("api/v1/faults")
        group.get { _, _ in
            try JSONResponse.make(encoding: FaultList(faults: mock.faults.entries.map(Self.json)))
        }
        group.post { request, _ in
            let json = try await JSONResponse.body(of: request, what: Self.example)
            let rule: FaultRule
            do {
                rule = try FaultRule(json: json)
            } catch {
                throw ControlAPIError.badRequest("The body is not a fault rule: \(error). Send \(Self.example).")
            }
            let id = try await Self.answering { () async throws(MockOperationError) in try await mock.addFault(rule) }
            return try JSONResponse.make(encoding: ControlBody.Created(id: id), status: .created)
        }
        group.delete { _, _ in
            let count = try await Self.answering { () async throws(MockOperationError) in try await mock.removeAllFaults() }
            return try JSONResponse.make(encoding: ControlBody.RemovedCount(removed: count))
        }
        group.delete(":id") { _, context in
            let id = try context.parameters.require("id")
            guard try await Self.answering({ () async throws(MockOperationError) in try await mock.removeFault(id: id) }) else {
                throw ControlAPIError.notFound("No fault rule has id '\(id)'; GET /api/v1/faults lists them.")
            }
            return try JSONResponse.make(encoding: ControlBody.RemovedID(removed: id))
        }
    }

    /// Runs one of the mock's operations, its refusal as the API's answer: a bound reached is 409, a change out of
    /// bounds 400, a shared store that did not take it 503 (the change was not made).
    static func answering<Result>(_ operation: () async throws(MockOperationError) -> Result) async throws -> Result {
        do {
            return try await operation()
        } catch {
            switch error {
            case .full(let text): throw ControlAPIError(.conflict, text)
            case .outOfBounds(let text): throw ControlAPIError.badRequest(text)
            case .sharedStoreUnavailable: throw ControlAPIError(.serviceUnavailable, error.description)
            }
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
