import Hummingbird
import MockAPNsFCM

/// Reads the FCM record filters (`project`, `name`, `token`, `topic`, `condition`, `status`, `validate_only`) of
/// `/api/v1/fcm/messages` and `/api/v1/fcm/expect` from a query string into an ``FCMExpectation/Filter``, as
/// ``RecordFilterQuery`` does for the notifications; a bad value answers 400.
enum FCMFilterQuery {
    /// The filter the query asks for; absent parameters match everything.
    static func filter(from request: Request) throws -> FCMExpectation.Filter {
        let query = request.formQueryParameters
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
