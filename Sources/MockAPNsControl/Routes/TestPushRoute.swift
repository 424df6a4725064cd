import APNsModel
import Hummingbird
import MockAPNs

/// `POST /api/v1/test-push` `{"token", "topic", "push_type", "priority", "payload"}`: sends a push through the
/// mock's real HTTP/2 path (the sender is handed in by whoever wires the control plane, since the control plane
/// may not depend on the client library), so it is recorded like any other. Answers `{"status", "reason",
/// "apns_id"}`. `POST /api/v1/lint` `{"payload", "push_type"?, "priority"?, "topic"?}` answers `{"lint": […]}`.
struct TestPushRoute {
    let sender: TestPushSender?

    func register(on router: Router<ControlRequestContext>) {
        let api = router.group("api/v1")
        api.post("test-push") { request, _ in
            guard let sender else {
                throw ControlAPIError.notFound("This control plane was started without a test-push sender.")
            }
            let body = try await JSONResponse.body(of: request, what: #"{"token": "<hex>", "topic": "…", "payload": {…}}"#)
            let push = try TestPush(json: body)
            let result: TestPushResult
            do {
                result = try await sender.send(push)
            } catch {
                throw ControlAPIError(.badGateway, "The test push could not be sent to the mock: \(error)")
            }
            return JSONResponse.make(.object([
                .init("status", .integer(Int64(result.status))),
                .init("reason", result.reason.map(JSONValue.string) ?? .null),
                .init("apns_id", result.apnsID.map(JSONValue.string) ?? .null),
            ]))
        }
        api.post("lint") { request, _ in
            var request = request
            let bytes = Array(try await request.collectBody(upTo: 1 << 20).readableBytesView)
            let query = request.uri.queryParameters
            var headers: [HeaderField] = []
            for (name, key) in [("apns-push-type", "push_type"), ("apns-priority", "priority"), ("apns-topic", "topic")] {
                if let value = query[Substring(key)], !value.isEmpty { headers.append(HeaderField(name: name, value: String(value))) }
            }
            let findings = PayloadLinter.lint(request: APNsRequest(method: "POST", path: "/3/device/x", headers: headers, body: bytes))
            return JSONResponse.make(.object([.init("lint", .array(findings.map {
                .object([.init("id", .string($0.id)), .init("severity", .string($0.severity.rawValue)),
                         .init("path", .string($0.path)), .init("message", .string($0.message))])
            }))]))
        }
    }
}
