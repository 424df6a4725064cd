import MockAPNs
import MockAPNsControl
import XCTest
import TestSupport

/// `--control-token`: every request needs `authorization: Bearer <token>`.
final class AuthorizationTests: LeakCheckedTestCase {
    func testRequestsNeedTheBearerToken() async throws {
        let harness = try await ControlTestHarness.start(token: "s3cret")
        addTeardownBlock { await harness.stop() }
        let client = harness.client
        let without = try await client.send("GET", "/api/v1/notifications")
        let wrong = try await client.send("GET", "/api/v1/notifications", headers: ["authorization": "Bearer nope"])
        let basic = try await client.send("GET", "/api/v1/stats", headers: ["authorization": "Basic czNjcmV0"])
        let right = try await client.send("GET", "/api/v1/notifications", headers: ["authorization": "Bearer s3cret"])
        let metrics = try await client.send("GET", "/metrics", headers: ["authorization": "bearer s3cret"])
        await harness.stop()
        for answer in [without, wrong, basic] {
            XCTAssertEqual(answer.status, 401, answer.text)
            XCTAssertTrue(try answer.json()["error"]?.stringValue?.contains("authorization: Bearer") == true, answer.text)
            XCTAssertEqual(answer.headers["www-authenticate"], "Bearer realm=\"mockapns\"")
        }
        XCTAssertEqual(right.status, 200)
        XCTAssertEqual(metrics.status, 200)
    }

    func testWithoutATokenLoopbackNeedsNoHeader() async throws {
        let harness = try await ControlTestHarness.start()
        addTeardownBlock { await harness.stop() }
        let answer = try await harness.client.send("GET", "/api/v1/stats")
        await harness.stop()
        XCTAssertEqual(answer.status, 200)
    }

    func testANonLoopbackAddressWithoutATokenIsRefused() async throws {
        let mock = try TestMock.anySignature()
        addTeardownBlock { mock.shutdown() }
        let control = ControlServer(mock: mock, configuration: ControlConfiguration(host: "0.0.0.0", port: 0))
        do {
            _ = try await control.start()
            XCTFail("started without a token on 0.0.0.0")
            await control.stop()
        } catch {
            XCTAssertEqual(error, .tokenRequiredForNonLoopback(host: "0.0.0.0"))
            XCTAssertTrue(error.description.contains("--control-token"), error.description)
        }
    }

    func testANonLoopbackAddressWithATokenStartsAndEnforcesIt() async throws {
        let mock = try TestMock.anySignature()
        addTeardownBlock { mock.shutdown() }
        let control = ControlServer(mock: mock, configuration: ControlConfiguration(host: "0.0.0.0", port: 0, controlToken: "wide-open"))
        addTeardownBlock { await control.stop() }
        let port = try await control.start()
        let client = HTTPTestClient(base: "http://127.0.0.1:\(port)")
        let without = try await client.send("GET", "/api/v1/stats")
        let with = try await client.send("GET", "/api/v1/stats", headers: ["authorization": "Bearer wide-open"])
        let health = try await client.send("GET", "/healthz")
        await control.stop()
        mock.shutdown()
        XCTAssertEqual(without.status, 401)
        XCTAssertEqual(with.status, 200)
        XCTAssertEqual(health.status, 200, "a container's health probe has no token; /healthz holds nothing secret")
    }

    func testLoopbackAddresses() {
        for host in ["127.0.0.1", "127.8.9.10", "localhost", "::1", "[::1]"] {
            XCTAssertTrue(ControlConfiguration(host: host).isLoopback, host)
        }
        for host in ["0.0.0.0", "192.0.2.1", "::", "example.com", "1127.0.0.1"] {
            XCTAssertFalse(ControlConfiguration(host: host).isLoopback, host)
        }
    }
}
