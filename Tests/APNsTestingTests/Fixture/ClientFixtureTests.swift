import APNsClient
import APNsModel
import APNsTesting
import TestSupport
import XCTest

/// `makeClient()` gives an `APNsClient` that reaches the mock, trusts it and is trusted by it.
final class ClientFixtureTests: LeakCheckedTestCase {
    func testMadeClientIsAcceptedAndSignsWithTheTestKey() async throws {
        let mock = try await APNsMock.start()
        addTeardownBlock { await mock.stop() }
        let client = try mock.makeClient()
        addTeardownBlock { await client.shutdown() }
        let response = try await client.send(
            APNsNotification.alert(bundleID: "com.example.shop", title: "Your order shipped", body: "Order 42"),
            deviceToken: Tokens.first)
        await client.shutdown()

        let received = try XCTUnwrap(mock.notifications.first)
        XCTAssertEqual(received.apnsID, response.apnsID)
        XCTAssertEqual(received.record.auth.keyID, "TESTKEY001")
        XCTAssertEqual(received.record.auth.teamID, "TESTTEAM01")
        XCTAssertReceived(mock, .token(Tokens.first), .topic("com.example.shop"), .alertTitle("Your order shipped"), .accepted)
    }

    func testConfigureAdjustsTheClient() async throws {
        let mock = try await APNsMock.start()
        addTeardownBlock { await mock.stop() }
        mock.failNext(reason: .serviceUnavailable)
        let client = try mock.makeClient { $0.retryPolicy = .never }
        addTeardownBlock { await client.shutdown() }
        do {
            _ = try await client.send(APNsNotification.alert(bundleID: "com.example.shop", body: "Hi"), deviceToken: Tokens.first)
            XCTFail("with retries off the 503 reaches the caller")
        } catch {
            XCTAssertEqual(error.reason?.reason, .serviceUnavailable)
        }
        await client.shutdown()
        XCTAssertEqual(mock.clientConfiguration.environment, .custom(url: mock.url))
        XCTAssertEqual(mock.clientConfiguration.trustRootsPEM, mock.caCertificatePEM)
    }
}
