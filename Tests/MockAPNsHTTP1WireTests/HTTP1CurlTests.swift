import Foundation
import MockAPNs
import MockAPNsHTTP1
import TestSupport
import XCTest

/// The HTTP/1.1 APNs endpoint driven by `curl --http1.1`, as APNSwift's own tests drive a plain-HTTP mock:
/// the same answers and the same records as over HTTP/2.
final class HTTP1CurlTests: LeakCheckedTestCase {
    private func curl(_ port: Int, _ path: String, headers: [String], body: String) throws -> (status: String, body: String) {
        let answer = try CurlRequest.send("POST", "http://127.0.0.1:\(port)\(path)", headers: headers, body: body)
        return (String(answer.status), answer.body)
    }

    func testCurlOverHTTP1GetsAPNsAnswers() async throws {
        var configuration = MockConfiguration()
        configuration.trustAnySignature = true
        let mock = try Mock(configuration: configuration)
        addTeardownBlock { mock.shutdown() }
        let endpoint = try APNsHTTP1Listener(mock: mock)
        addTeardownBlock { await endpoint.stop() }
        let port = try await endpoint.start()
        let jwt = TokenFixture.bearer()
        let token = String(repeating: "ab", count: 32)

        let ok = try curl(port, "/3/device/\(token)", headers: ["authorization: bearer \(jwt)", "apns-topic: com.example.app"],
                          body: #"{"aps":{"alert":"hello"}}"#)
        XCTAssertEqual(ok.status, "200")
        XCTAssertEqual(ok.body, "")
        let bad = try curl(port, "/3/device/not-hex", headers: ["authorization: bearer \(jwt)", "apns-topic: com.example.app"],
                           body: #"{"aps":{"alert":"hello"}}"#)
        XCTAssertEqual(bad.status, "400")
        XCTAssertEqual(bad.body, #"{"reason":"BadDeviceToken"}"#)
        let unauthenticated = try curl(port, "/3/device/\(token)", headers: ["apns-topic: com.example.app"], body: "{}")
        XCTAssertEqual(unauthenticated.body, #"{"reason":"MissingProviderToken"}"#)
        XCTAssertEqual(mock.recorder.records().map(\.response.status), [200, 400, 403])
        XCTAssertEqual(mock.recorder.records().map(\.streamID), [0, 0, 0])
    }
}
