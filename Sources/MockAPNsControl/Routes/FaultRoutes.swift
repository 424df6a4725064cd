import APNsModel
import Hummingbird
import MockAPNs

/// `/api/v1/faults`: list, add and remove fault-plan rules.
struct FaultRoutes {
    let faults: FaultPlan

    func register(on router: Router<ControlRequestContext>) {
        let group = router.group("api/v1/faults")
        group.get { _, _ in
            JSONResponse.make(.object([.init("faults", try JSONResponse.jsonValue(of: faults.rules))]))
        }
        group.post { request, _ in
            let rule = try await JSONResponse.decode(FaultRule.self, from: request, what: "fault rule")
            let id = faults.add(rule)
            return JSONResponse.make(.object([.init("id", .string(id))]), status: .created)
        }
        group.delete { _, _ in
            let count = faults.rules.count
            faults.removeAll()
            return JSONResponse.make(.object([.init("removed", .integer(Int64(count)))]))
        }
        group.delete(":id") { _, context in
            let id = try context.parameters.require("id")
            let before = faults.rules.count
            faults.remove(id: id)
            guard faults.rules.count < before else {
                throw ControlAPIError.notFound("No fault rule has id '\(id)'; GET /api/v1/faults lists them.")
            }
            return JSONResponse.make(.object([.init("removed", .string(id))]))
        }
    }
}
