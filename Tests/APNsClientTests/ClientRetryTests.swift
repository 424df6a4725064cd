import APNsClient
import APNsModel
import TestSupport
import XCTest
@testable import MockAPNs
@testable import MockAPNsRecording

/// Retries against the live mock: what is retried, with which `apns-id`, and what is not.
final class ClientRetryTests: LeakCheckedTestCase {
    private let token = ClientTestServer.token
    private let push = APNsNotification.alert(bundleID: "com.example.app", body: "Hello")

    func testServiceUnavailableTwiceThenSuccessKeepsTheApnsID() async throws {
        let server = try await ClientTestServer.start()
        addTeardownBlock { await server.stop() }
        server.mock.faults.add(FaultRule(count: 2, action: .status(503, reason: "ServiceUnavailable")))
        let client = try APNsClient(configuration: try server.configuration())
        addTeardownBlock { await client.shutdown() }
        let response = try await client.send(push, deviceToken: token)
        XCTAssertEqual(response.attempts, 3)
        let records = server.recorder.records()
        XCTAssertEqual(records.count, 3)
        XCTAssertEqual(Set(records.compactMap { $0.headers.first { $0.name == "apns-id" }?.value }), [response.apnsID])
        XCTAssertEqual(records.map(\.response.status), [503, 503, 200])
    }

    func testTooManyRequestsIsRetriedUntilAttemptsRunOut() async throws {
        let server = try await ClientTestServer.start()
        addTeardownBlock { await server.stop() }
        server.mock.faults.add(FaultRule(action: .status(429, reason: "TooManyRequests")))
        let client = try APNsClient(configuration: try server.configuration(
            retryPolicy: APNsRetryPolicy(maxAttempts: 3, baseDelay: .milliseconds(5), maxDelay: .milliseconds(20))))
        addTeardownBlock { await client.shutdown() }
        do {
            _ = try await client.send(push, deviceToken: token)
            XCTFail("expected TooManyRequests")
        } catch {
            guard case let .rejected(status, reason, _, _) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(status, 429)
            XCTAssertEqual(reason, .known(.tooManyRequests))
        }
        XCTAssertEqual(server.recorder.records().count, 3)
    }

    func testGoAwayReconnectsAndSucceeds() async throws {
        let server = try await ClientTestServer.start()
        addTeardownBlock { await server.stop() }
        server.mock.faults.add(FaultRule(count: 1, action: .goAway(reason: "Shutdown", errorCode: 0)))
        let client = try APNsClient(configuration: try server.configuration())
        addTeardownBlock { await client.shutdown() }
        let response = try await client.send(push, deviceToken: token)
        XCTAssertEqual(response.attempts, 2)
        let records = server.recorder.records()
        XCTAssertEqual(records.count, 2)
        XCTAssertEqual(Set(records.compactMap { $0.headers.first { $0.name == "apns-id" }?.value }), [response.apnsID])
        XCTAssertNotEqual(records[0].connectionID, records[1].connectionID, "the retry must use a new connection")
        // The pool keeps working on the new connection.
        _ = try await client.send(push, deviceToken: token)
    }

    func testDroppedConnectionIsRetriedOnANewOne() async throws {
        let server = try await ClientTestServer.start()
        addTeardownBlock { await server.stop() }
        server.mock.faults.add(FaultRule(count: 1, action: .drop))
        let client = try APNsClient(configuration: try server.configuration())
        addTeardownBlock { await client.shutdown() }
        let response = try await client.send(push, deviceToken: token)
        XCTAssertEqual(response.attempts, 2)
    }

    func testUnregisteredIsNotRetried() async throws {
        let server = try await ClientTestServer.start()
        addTeardownBlock { await server.stop() }
        try server.mock.devices.set(token, .unregistered(timestamp: 1_700_000_000_000))
        let client = try APNsClient(configuration: try server.configuration())
        addTeardownBlock { await client.shutdown() }
        do {
            _ = try await client.send(push, deviceToken: token)
            XCTFail("expected Unregistered")
        } catch {
            guard case let .rejected(status, reason, timestamp, apnsID) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(status, 410)
            XCTAssertEqual(reason, .known(.unregistered))
            XCTAssertEqual(timestamp, 1_700_000_000_000)
            XCTAssertFalse(apnsID.isEmpty)
        }
        XCTAssertEqual(server.recorder.records().count, 1)
    }

    func testNeverRetriedReasonsAreSentOnce() async throws {
        let server = try await ClientTestServer.start()
        addTeardownBlock { await server.stop() }
        let client = try APNsClient(configuration: try server.configuration())
        addTeardownBlock { await client.shutdown() }
        // BadDeviceToken (not hex) and PayloadTooLarge come from the mock's own checks.
        for (notification, deviceToken, expected) in [
            (APNsRawNotification(pushType: "alert", topic: "com.example.app", payload: Array(#"{"aps":{}}"#.utf8)), "zz",
             APNsReason.badDeviceToken),
            (APNsRawNotification(pushType: "alert", topic: "com.example.app",
                                 payload: Array(#"{"aps":{},"x":""#.utf8) + Array(repeating: 0x61, count: 5000) + Array(#""}"#.utf8)),
             token, .payloadTooLarge),
        ] {
            server.recorder.clear()
            do {
                _ = try await client.send(notification, deviceToken: deviceToken)
                XCTFail("expected \(expected)")
            } catch {
                XCTAssertEqual(error.reason, .known(expected))
            }
            XCTAssertEqual(server.recorder.records().count, 1, "\(expected) must not be retried")
        }
    }

    func testStalledRequestTimesOut() async throws {
        let server = try await ClientTestServer.start()
        addTeardownBlock { await server.stop() }
        server.mock.faults.add(FaultRule(count: 1, action: .stall))
        let client = try APNsClient(configuration: try server.configuration(requestTimeout: .milliseconds(300)))
        addTeardownBlock { await client.shutdown() }
        do {
            _ = try await client.send(push, deviceToken: token)
            XCTFail("expected a timeout")
        } catch {
            XCTAssertEqual(error, .timeout)
        }
        // The connection is still usable afterwards.
        _ = try await client.send(push, deviceToken: token)
    }

    func testShutdownLetsInFlightFinishAndRefusesNewSends() async throws {
        let server = try await ClientTestServer.start()
        addTeardownBlock { await server.stop() }
        server.mock.faults.add(FaultRule(count: 1, action: .delay(milliseconds: 300)))
        let client = try APNsClient(configuration: try server.configuration())
        addTeardownBlock { await client.shutdown() }
        let push = self.push
        let token = self.token
        let inFlight = Task { () throws(APNsClientError) -> APNsResponse in try await client.send(push, deviceToken: token) }
        // Wait until the server holds the request (its delay fault fired), then shut down.
        let held = try await Poll.until(every: .milliseconds(5)) { server.mock.faults.entries.first?.fired == 1 }
        XCTAssertTrue(held, "the delay fault never fired")
        await client.shutdown()
        let response = try await inFlight.value
        XCTAssertEqual(response.attempts, 1)
        do {
            _ = try await client.send(push, deviceToken: token)
            XCTFail("expected .shutdown")
        } catch {
            XCTAssertEqual(error, .shutdown)
        }
    }
}
