import APNsModel
import DeviceSimulation
import Foundation
import MockAPNs
import MockAPNsControl
import TestSupport
import XCTest

/// Web pages cannot use the control plane: foreign `Host` (DNS rebinding) and foreign `Origin` (any site the
/// developer visits) get 403, with and without a token; curl, scripts and the control plane's own pages pass.
final class BrowserGuardTests: LeakCheckedTestCase {
    private let rule = #"{"action":{"type":"stall"}}"#

    func testWithoutATokenAForeignHostIsRefused() async throws {
        let harness = try await ControlTestHarness.start()
        addTeardownBlock { await harness.stop() }
        let url = "http://127.0.0.1:\(harness.port)"
        let rebinding = try CurlRequest.send("GET", url + "/api/v1/notifications", headers: ["Host: evil.example"])
        let rebindingWithPort = try CurlRequest.send("GET", url + "/api/v1/stats", headers: ["Host: evil.example:\(harness.port)"])
        let lookalike = try CurlRequest.send("GET", url + "/healthz", headers: ["Host: localhost.evil.example"])
        let numericLookalike = try CurlRequest.send("GET", url + "/healthz", headers: ["Host: 127.0.0.1.evil.example"])
        let writes = try CurlRequest.send("POST", url + "/api/v1/faults", headers: ["Host: evil.example"], body: rule)
        let faults = harness.mock.faults.entries.count
        await harness.stop()
        for answer in [rebinding, rebindingWithPort, lookalike, numericLookalike, writes] {
            XCTAssertEqual(answer.status, 403, answer.body)
            let error = try JSONValue.parse(Array(answer.body.utf8))["error"]?.stringValue ?? ""
            XCTAssertTrue(error.contains("not a loopback name") && error.contains("--control-token"), error)
            XCTAssertNil(answer.headers["access-control-allow-origin"])
        }
        XCTAssertEqual(faults, 0)
    }

    func testWithoutATokenLoopbackNamesPass() async throws {
        let harness = try await ControlTestHarness.start()
        addTeardownBlock { await harness.stop() }
        let url = "http://127.0.0.1:\(harness.port)"
        var statuses: [String: Int] = [:]
        for host in ["127.0.0.1:\(harness.port)", "localhost:\(harness.port)", "LOCALHOST", "[::1]:\(harness.port)",
                     "dashboard.localhost:\(harness.port)", "127.3.4.5", "localhost."] {
            statuses[host] = try CurlRequest.send("GET", url + "/api/v1/stats", headers: ["Host: \(host)"]).status
        }
        let plain = try CurlRequest.send("GET", url + "/healthz")
        await harness.stop()
        XCTAssertEqual(statuses.values.filter { $0 != 200 }.count, 0, "\(statuses)")
        XCTAssertEqual(plain.status, 200)
    }

    func testAForeignOriginCannotPostPlainTextFaults() async throws {
        let harness = try await ControlTestHarness.start()
        addTeardownBlock { await harness.stop() }
        let url = "http://127.0.0.1:\(harness.port)"
        var answers: [CurlRequest.Answer] = []
        for origin in ["http://evil.example", "null", "http://localhost:\(harness.port + 1)", "https://127.0.0.1:\(harness.port)",
                       "http://127.0.0.1", "http://localhost:\(harness.port)"] {
            answers.append(try CurlRequest.send("POST", url + "/api/v1/faults",
                                                headers: ["Origin: \(origin)", "Content-Type: text/plain"], body: rule))
        }
        let twoOrigins = try CurlRequest.send("POST", url + "/api/v1/faults",
                                              headers: ["Origin: http://127.0.0.1:\(harness.port)", "Origin: http://evil.example"],
                                              body: rule)
        let readBack = try CurlRequest.send("GET", url + "/api/v1/notifications", headers: ["Origin: http://evil.example"])
        let faults = harness.mock.faults.entries.count
        await harness.stop()
        for answer in answers + [twoOrigins, readBack] {
            XCTAssertEqual(answer.status, 403, answer.body)
            let error = try JSONValue.parse(Array(answer.body.utf8))["error"]?.stringValue ?? ""
            XCTAssertTrue(error.contains("may not use the control plane"), error)
            XCTAssertNil(answer.headers["access-control-allow-origin"])
        }
        XCTAssertEqual(faults, 0, "a foreign page added fault rules")
    }

    func testACORSPreflightFromAForeignSiteIsRefused() async throws {
        let harness = try await ControlTestHarness.start()
        addTeardownBlock { await harness.stop() }
        let answer = try CurlRequest.send(
            "OPTIONS", "http://127.0.0.1:\(harness.port)/api/v1/faults",
            headers: ["Origin: http://evil.example", "Access-Control-Request-Method: POST",
                      "Access-Control-Request-Headers: content-type"])
        await harness.stop()
        XCTAssertEqual(answer.status, 403, answer.body)
        XCTAssertNil(answer.headers["access-control-allow-origin"])
        XCTAssertNil(answer.headers["access-control-allow-methods"])
    }

    func testTheControlPlanesOwnPagesAndCurlPass() async throws {
        let harness = try await ControlTestHarness.start()
        addTeardownBlock { await harness.stop() }
        let port = harness.port
        let url = "http://127.0.0.1:\(port)"
        let sameOrigin = try CurlRequest.send("POST", url + "/api/v1/faults",
                                              headers: ["Origin: http://127.0.0.1:\(port)", "Content-Type: application/json"], body: rule)
        let sameOriginLocalhost = try CurlRequest.send("DELETE", url + "/api/v1/faults",
                                                       headers: ["Host: localhost:\(port)", "Origin: http://LOCALHOST:\(port)"])
        let curlPost = try CurlRequest.send("POST", url + "/api/v1/faults", headers: ["Content-Type: application/json"], body: rule)
        let client = try await harness.client.send("GET", "/api/v1/faults")
        await harness.stop()
        XCTAssertEqual(sameOrigin.status, 201, sameOrigin.body)
        XCTAssertEqual(sameOriginLocalhost.status, 200, sameOriginLocalhost.body)
        XCTAssertEqual(curlPost.status, 201, curlPost.body)
        XCTAssertEqual(client.status, 200)
        XCTAssertEqual(try client.json()["faults"]?.arrayElements?.count, 1)
    }

    func testWithATokenAnyHostPassesButForeignOriginsAndMissingTokensDoNot() async throws {
        let harness = try await ControlTestHarness.start(token: "s3cret")
        addTeardownBlock { await harness.stop() }
        let url = "http://127.0.0.1:\(harness.port)"
        let auth = "Authorization: Bearer s3cret"
        let namedHost = try CurlRequest.send("GET", url + "/api/v1/stats", headers: [auth, "Host: mockapns.internal:\(harness.port)"])
        let foreignOrigin = try CurlRequest.send("POST", url + "/api/v1/faults",
                                                 headers: [auth, "Origin: http://evil.example", "Content-Type: text/plain"], body: rule)
        let preflight = try CurlRequest.send("OPTIONS", url + "/api/v1/faults",
                                             headers: ["Origin: http://evil.example", "Access-Control-Request-Method: POST"])
        let ownOrigin = try CurlRequest.send("POST", url + "/api/v1/faults",
                                             headers: [auth, "Origin: http://127.0.0.1:\(harness.port)"], body: rule)
        let noToken = try CurlRequest.send("GET", url + "/api/v1/stats")
        let faults = harness.mock.faults.entries.count
        await harness.stop()
        XCTAssertEqual(namedHost.status, 200, namedHost.body)
        XCTAssertEqual(foreignOrigin.status, 403, foreignOrigin.body)
        XCTAssertEqual(preflight.status, 403, preflight.body)
        XCTAssertNil(preflight.headers["access-control-allow-origin"])
        XCTAssertEqual(ownOrigin.status, 201, ownOrigin.body)
        XCTAssertEqual(noToken.status, 401, noToken.body)
        XCTAssertEqual(faults, 1)
    }
}
