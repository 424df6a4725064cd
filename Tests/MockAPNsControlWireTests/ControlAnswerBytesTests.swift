import APNsModel
import JSON
import MockAPNs
import MockAPNsControl
import TestSupport
import XCTest

/// The control API's fixed-shape answers byte for byte, as clients and the dashboard see them: key order, integers,
/// `null` against an absent member, "/" unescaped, a trailing newline. They are Encodable bodies written through
/// `JSONValueEncoder` and were `JSONValue` trees built by hand before; these bytes are what the trees wrote.
final class ControlAnswerBytesTests: LeakCheckedTestCase {
    func testFixedShapeAnswersKeepTheirBytes() async throws {
        let harness = try await ControlTestHarness.start()
        addTeardownBlock { await harness.stop() }
        let client = harness.client
        var answers: [(String, HTTPAnswer, Int, String)] = []
        func check(_ method: String, _ path: String, body: String? = nil, _ status: Int, _ expected: String) async throws {
            answers.append((method + " " + path, try await client.send(method, path, body: body), status, expected))
        }

        try await check("GET", "/healthz", 200, #"{"status":"ok"}"#)
        try await check("GET", "/api/v1/nope", 404,
                        #"{"error":"No such endpoint: GET /api/v1/nope. The API lives under /api/v1 (notifications, stream, stats, "#
                            + #"devices, faults), plus /metrics and /healthz."}"#)
        try await check("PUT", "/api/v1/devices/AB12", body: #"{"state":"unregistered","timestamp":1795442400000}"#, 200,
                        #"{"token":"AB12","device":{"state":"unregistered","timestamp":1795442400000}}"#)
        try await check("PUT", "/api/v1/devices/cd34", body: #"{"online":false,"at":1800000000000,"push_to_start_tokens":["EF56"]}"#,
                        200, #"{"token":"cd34","changes":[{"at":1800000000000,"change":"offline"}],"push_to_start_tokens":["ef56"]}"#)
        try await check("POST", "/api/v1/devices/CD34/changes", body: #"{"change":"online","at":1800000060000}"#, 201,
                        #"{"token":"cd34","change":{"at":1800000060000,"change":"online"}}"#)
        try await check("GET", "/api/v1/devices/cd34/timeline?until=1", 200, #"{"token":"cd34","until":1,"entries":[]}"#)
        try await check("DELETE", "/api/v1/devices/AB12", 200, #"{"removed":"AB12"}"#)
        try await check("DELETE", "/api/v1/devices", 200, #"{"removed":0}"#)
        try await check("DELETE", "/api/v1/faults", 200, #"{"removed":0}"#)
        try await check("GET", "/api/v1/faults", 200, #"{"faults":[]}"#)
        try await check("DELETE", "/api/v1/notifications", 200, #"{"cleared":0}"#)
        try await check("GET", "/api/v1/notifications", 200, #"{"notifications":[]}"#)
        try await check("GET", "/api/v1/search", 200, #"{"notifications":[],"next_before":null,"read_file":false,"last_seq":0}"#)
        try await check("POST", "/api/v1/lint?push_type=background&priority=5", body: #"{"aps":{"alert":"hi"}}"#, 200,
                        #"{"lint":[{"id":"background-has-alert","severity":"error","path":"aps.alert","#
                            + #""message":"background pushes must not carry alert: send it as an alert push, or drop alert to keep "#
                            + #"the push silent"}]}"#)
        try await check("POST", "/api/v1/test-push", body: "{}", 404,
                        #"{"error":"This control plane was started without a test-push sender."}"#)
        await harness.stop()
        for (request, answer, status, expected) in answers {
            XCTAssertEqual(answer.status, status, request)
            XCTAssertEqual(answer.text, expected + "\n", request)
        }
    }
}
