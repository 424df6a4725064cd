import Hummingbird
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
            let filter = try FCMFilterQuery.filter(from: request)
            let expectation = FCMExpectation(filter: filter, quantity: try ExpectRoute.quantity(request))
            let records = try await FCMRoutes.reading(frontDoor) { try await $0.records(matching: FCMExpectation.Filter()) }
            return JSONResponse.make(expectation.evaluate(records).json(source: "the mock's FCM records"))
        }
    }
}
