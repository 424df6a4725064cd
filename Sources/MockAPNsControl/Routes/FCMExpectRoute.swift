import Hummingbird
import HummingbirdCore
import JSON
import MockAPNsFCM
import MockAPNsRecording

/// `GET /api/v1/fcm/expect`: whether the FCM records meet an expectation, checked here so that `mockapns expect --fcm`
/// and every kit's FCM expectation say the same in the same words (``FCMExpectation``, ``ExpectationReport``). The
/// filters are `/api/v1/fcm/messages`' (`project`, `name`, `token`, `topic`, `status`) plus `condition` and
/// `validate_only`; at most one of `count=N`, `at_least=N` or `none=true` sets the quantity (default at least 1).
/// Answers what `GET /api/v1/expect` answers, 200 whether it is met or not; 404 without `serve --fcm`.
struct FCMExpectRoute {
    let frontDoor: FCMFrontDoor?

    func register(on router: Router<ControlRequestContext>) {
        router.get("api/v1/fcm/expect") { request, _ in
            let frontDoor = try FCMRoutes.required(frontDoor)
            let filter = try Self.filter(request.formQueryParameters)
            let expectation = FCMExpectation(filter: filter, quantity: try ExpectRoute.quantity(request))
            let records = frontDoor.records.records().map(\.json)
            return JSONResponse.make(expectation.evaluate(records).json(source: "the mock's FCM records"))
        }
    }

    /// The filters of `/api/v1/fcm/messages` and `/api/v1/fcm/expect`, from their query, or the 400 a bad value gets.
    static func filter(_ query: FlatDictionary<Substring, Substring>) throws -> FCMExpectation.Filter {
        func text(_ name: String) -> String? { query[Substring(name)].map(String.init) }
        var filter = FCMExpectation.Filter(project: text("project"), name: text("name"), token: text("token"),
                                           topic: text("topic"), condition: text("condition"))
        if let status = text("status") {
            guard let value = Int(status) else {
                throw ControlAPIError.badRequest("Query parameter 'status' must be an HTTP status such as 200 or 404; got '\(status)'.")
            }
            filter.status = value
        }
        if let dryRun = text("validate_only") {
            guard let value = ["true": true, "1": true, "false": false, "0": false][dryRun] else {
                throw ControlAPIError.badRequest("Query parameter 'validate_only' must be true or false; got '\(dryRun)'.")
            }
            filter.validateOnly = value
        }
        return filter
    }
}
