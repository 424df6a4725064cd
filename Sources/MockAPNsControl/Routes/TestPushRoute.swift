import APNsModel
import DeviceSimulation
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
            return try JSONResponse.make(encoding: Answer(status: result.status, reason: result.reason, apnsID: result.apnsID))
        }
        api.post("lint") { request, _ in
            var request = request
            let bytes = Array(try await request.collectBody(upTo: 1 << 20).readableBytesView)
            let query = request.formQueryParameters
            var headers: [HeaderField] = []
            for (name, key) in [("apns-push-type", "push_type"), ("apns-priority", "priority"), ("apns-topic", "topic")] {
                if let value = query[Substring(key)], !value.isEmpty { headers.append(HeaderField(name: name, value: String(value))) }
            }
            let findings = PayloadLinter.lint(request: APNsRequest(method: "POST", path: "/3/device/x", headers: headers, body: bytes))
            return try JSONResponse.make(encoding: LintAnswer(lint: findings.map {
                LintAnswer.Finding(id: $0.id, severity: $0.severity.rawValue, path: $0.path, message: $0.message)
            }))
        }
    }

    /// `{"status", "reason", "apns_id"}`, `null` where APNs gave none.
    private struct Answer: Encodable {
        let status: Int
        let reason: String?
        let apnsID: String?
        enum CodingKeys: String, CodingKey { case status, reason, apnsID = "apns_id" }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(status, forKey: .status)
            try container.encode(reason, forKey: .reason)   // nil: null, not absent
            try container.encode(apnsID, forKey: .apnsID)
        }
    }

    /// `{"lint": [{"id", "severity", "path", "message"}]}`.
    private struct LintAnswer: Encodable {
        struct Finding: Encodable {
            let id: String
            let severity: String
            let path: String
            let message: String
            enum CodingKeys: String, CodingKey { case id, severity, path, message }
        }

        let lint: [Finding]
        enum CodingKeys: String, CodingKey { case lint }
    }
}
