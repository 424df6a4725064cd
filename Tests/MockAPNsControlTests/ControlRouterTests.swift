import APNsModel
import Hummingbird
import HummingbirdTesting
import MockAPNs
@testable import MockAPNsControl
import MockTestSupport
import NIOCore
import XCTest

/// The control plane's routes through HummingbirdTesting's router client: the same router `serve` runs (middleware
/// included), with no socket. The wire suites (MockAPNsControlWireTests) cover what needs one: streams, the
/// dashboard in a browser, the listener's lifecycle.
final class ControlRouterTests: LeakCheckedTestCase {
    private static let device = String(repeating: "ab", count: 32)

    /// Runs `body` against the routes of a control plane over a fresh mock (`token`: its bearer token, nil = open).
    private func withRoutes(token: String? = nil, _ body: @Sendable (Mock, any TestClientProtocol) async throws -> Void) async throws {
        let mock = try TestMock.anySignature()
        addTeardownBlock { mock.shutdown() }
        let control = ControlServer(mock: mock, configuration: ControlConfiguration(host: "127.0.0.1", port: 0, controlToken: token))
        let app = Application(router: control.makeRouter())
        try await app.test(.router) { client in try await body(mock, client) }
    }

    /// A push to `device` through the mock's pipeline, as a listener would hand it over.
    private static func push(_ mock: Mock, topic: String = "com.example.app", payload: String = #"{"aps":{"alert":"hi"}}"#) -> Int {
        let request = APNsRequest(method: "POST", path: "/3/device/\(Self.device)", headers: [
            HeaderField(name: "authorization", value: "bearer \(TokenFixture.bearer())"),
            HeaderField(name: "apns-topic", value: topic), HeaderField(name: "apns-push-type", value: "alert"),
        ], body: Array(payload.utf8))
        return mock.pipeline.answerNow(request, on: PipelineConnection(id: mock.newConnectionID(), remote: "127.0.0.1:1", streamID: 1)).status
    }

    private static func json(_ response: TestResponse) throws -> JSONValue {
        try JSONValue.parse(Array(response.body.readableBytesView))
    }

    private static func body(_ text: String) -> ByteBuffer { ByteBuffer(string: text) }

    func testHealthAnswersAndAnUnknownPathIsAJSON404() async throws {
        try await withRoutes { _, client in
            try await client.execute(uri: "/healthz", method: .get) { XCTAssertEqual($0.status, .ok) }
            try await client.execute(uri: "/api/v1/nothing-here", method: .get) { response in
                XCTAssertEqual(response.status, .notFound)
                XCTAssertNotNil(try Self.json(response)["error"]?.stringValue)
            }
        }
    }

    /// Without `serve --fcm`, an FCM expectation is a 404 that says how to get the front door.
    func testAnFCMExpectationWithoutTheFrontDoorSaysHowToStartIt() async throws {
        try await withRoutes { _, client in
            try await client.execute(uri: "/api/v1/fcm/expect?status=200", method: .get) { response in
                XCTAssertEqual(response.status, .notFound)
                XCTAssertTrue(try Self.json(response)["error"]?.stringValue?.contains("mockapns serve --fcm") == true, String(buffer: response.body))
            }
        }
    }

    func testADeviceStateSetThroughTheRouteIsWhatThePipelineAnswers() async throws {
        try await withRoutes { mock, client in
            try await client.execute(uri: "/api/v1/devices/\(Self.device)", method: .put,
                                     body: Self.body(#"{"state":"unregistered","timestamp":1795442400000}"#)) {
                XCTAssertEqual($0.status, .ok, String(buffer: $0.body))
            }
            XCTAssertEqual(Self.push(mock), 410)
            try await client.execute(uri: "/api/v1/devices", method: .get) { response in
                XCTAssertEqual(try Self.json(response).value(at: ["devices", Self.device, "state"])?.stringValue, "unregistered")
            }
            try await client.execute(uri: "/api/v1/devices/\(Self.device)", method: .delete) { XCTAssertEqual($0.status, .ok) }
            XCTAssertEqual(Self.push(mock), 200)
        }
    }

    func testAFaultAddedThroughTheRouteFiresAndABadOneIsRefusedWithASentence() async throws {
        try await withRoutes { mock, client in
            let id = try await client.execute(uri: "/api/v1/faults", method: .post,
                                              body: Self.body(#"{"count":1,"action":{"type":"status","status":503,"reason":"ServiceUnavailable"}}"#)) { response in
                XCTAssertEqual(response.status, .created, String(buffer: response.body))
                return try Self.json(response)["id"]?.stringValue
            }
            XCTAssertEqual(Self.push(mock), 503)
            XCTAssertEqual(Self.push(mock), 200, "count 1: it fired once")
            try await client.execute(uri: "/api/v1/faults/\(try XCTUnwrap(id))", method: .delete) { XCTAssertEqual($0.status, .ok) }
            try await client.execute(uri: "/api/v1/faults", method: .post, body: Self.body(#"{"action":{"type":"explode"}}"#)) { response in
                XCTAssertEqual(response.status, .badRequest)
                XCTAssertTrue(String(buffer: response.body).contains("explode"), String(buffer: response.body))
            }
            XCTAssertTrue(mock.faults.entries.isEmpty, "a refused rule is not added")
        }
    }

    func testNotificationsAndExpectReadTheRecords() async throws {
        try await withRoutes { mock, client in
            XCTAssertEqual(Self.push(mock, topic: "com.example.app"), 200)
            XCTAssertEqual(Self.push(mock, topic: "com.example.other"), 200)
            try await client.execute(uri: "/api/v1/notifications?topic=com.example.other", method: .get) { response in
                XCTAssertEqual(response.status, .ok)
                let records = try Self.json(response)["notifications"]?.arrayElements
                XCTAssertEqual(records?.count, 1)
                XCTAssertEqual(records?.first?["seq"]?.integerValue, 2, "the second push's record")
            }
            try await client.execute(uri: "/api/v1/expect?topic=com.example.app&count=1", method: .get) { response in
                XCTAssertEqual(try Self.json(response)["met"], .bool(true), String(buffer: response.body))
            }
            try await client.execute(uri: "/api/v1/expect?topic=com.example.missing", method: .get) { response in
                let answer = try Self.json(response)
                XCTAssertEqual(answer["met"], .bool(false))
                XCTAssertTrue(answer["message"]?.stringValue?.contains("0 matched (of 2 records in the mock's recording)") == true,
                              answer["message"]?.stringValue ?? "no message")
            }
        }
    }

    /// A query is read as a form encodes it: Python's `urlencode` and Go's `url.Values` send a space as `+`, and a
    /// plus is `%2B`.
    func testAPlusInTheQueryIsASpaceAndAnEncodedPlusIsAPlus() async throws {
        try await withRoutes { mock, client in
            XCTAssertEqual(Self.push(mock, payload: #"{"aps":{"alert":{"title":"Your order shipped","body":"+1 item"}}}"#), 200)
            for (query, met) in [("where=aps.alert.title%3DYour+order+shipped", true), ("where=aps.alert.title=Your%20order%20shipped", true),
                                 ("where=aps.alert.body=%2B1+item", true), ("where=aps.alert.body=+1+item", false)] {
                try await client.execute(uri: "/api/v1/expect?\(query)", method: .get) { response in
                    XCTAssertEqual(try Self.json(response)["met"], .bool(met), "\(query): \(String(buffer: response.body))")
                }
            }
        }
    }

    func testTheBearerTokenGuardsEveryRouteButTheHealthCheck() async throws {
        try await withRoutes(token: "s3cret") { _, client in
            try await client.execute(uri: "/api/v1/notifications", method: .get) { XCTAssertEqual($0.status, .unauthorized) }
            try await client.execute(uri: "/api/v1/notifications", method: .get, headers: [.authorization: "Bearer wrong"]) {
                XCTAssertEqual($0.status, .unauthorized)
            }
            try await client.execute(uri: "/api/v1/notifications", method: .get, headers: [.authorization: "Bearer s3cret"]) {
                XCTAssertEqual($0.status, .ok)
            }
            try await client.execute(uri: "/healthz", method: .get) { XCTAssertEqual($0.status, .ok) }
        }
    }

    func testABrowserOnAnotherSiteCannotChangeTheMock() async throws {
        try await withRoutes { mock, client in
            try await client.execute(uri: "/api/v1/devices/\(Self.device)", method: .put,
                                     headers: [.origin: "https://attacker.example"], body: Self.body(#"{"state":"expired"}"#)) {
                XCTAssertEqual($0.status, .forbidden)
            }
            XCTAssertTrue(mock.devices.all().isEmpty)
        }
    }
}
