import APNsModel
import APNsTesting
import Foundation
import MockAPNs
import PeerSupport
import XCTest

/// `APNsMock.start()` gives a working mock with defaults, its properties say how to reach and trust it,
/// and its options change what they say they change.
final class FixtureTests: LeakCheckedTestCase {
    func testDefaultsGiveAReachableTrustedMock() async throws {
        let mock = try await APNsMock.start()
        addTeardownBlock { await mock.stop() }
        XCTAssertEqual(mock.host, "127.0.0.1")
        XCTAssertGreaterThan(mock.port, 0)
        XCTAssertEqual(mock.url, "https://127.0.0.1:\(mock.port)")
        XCTAssertTrue(mock.caCertificatePEM.hasPrefix("-----BEGIN CERTIFICATE-----"))
        XCTAssertEqual(mock.testKey.keyID, "TESTKEY001")
        XCTAssertEqual(mock.testKey.teamID, "TESTTEAM01")
        XCTAssertTrue(mock.testKey.privateKeyPEM.contains("PRIVATE KEY"))

        let sender = try await RawSender.connect(to: mock)
        let answer = try await sender.send(Payloads.shipped)
        await sender.close()
        XCTAssertEqual(answer.status, 200)
        XCTAssertNotNil(answer.header("apns-unique-id"), "development mode answers with apns-unique-id")

        let received = try XCTUnwrap(mock.notifications.first)
        XCTAssertEqual(received.deviceToken, Tokens.first)
        XCTAssertEqual(received.topic, "com.example.shop")
        XCTAssertEqual(received.pushType, .alert)
        XCTAssertEqual(received.alertTitle, "Your order shipped")
        XCTAssertEqual(received.alertBody, "Order 42 is on its way")
        XCTAssertEqual(received.badge, 1)
        XCTAssertEqual(received.customValue("orderID"), .string("42"))
        XCTAssertTrue(received.isAccepted)
        XCTAssertEqual(received.apnsID, answer.header("apns-id"))
        XCTAssertEqual(received.simulate(on: DeviceProfile(state: .background)).presentation.kind, .banner)
    }

    func testNotificationsHoldAcceptedAndRejectedInOrder() async throws {
        let mock = try await APNsMock.start()
        addTeardownBlock { await mock.stop() }
        mock.unregister(token: Tokens.second)
        let sender = try await RawSender.connect(to: mock)
        try await sender.send(Payloads.shipped, to: Tokens.first)
        try await sender.send(Payloads.shipped, to: Tokens.second)
        try await sender.send(Payloads.shipped, to: "not-hex")
        await sender.close()

        let all = mock.notifications
        XCTAssertEqual(all.map(\.status), [200, 410, 400])
        XCTAssertEqual(all.map(\.reason), [nil, .unregistered, .badDeviceToken])
        XCTAssertEqual(mock.notifications(matching: RecordFilter(status: 410)).map(\.deviceToken), [Tokens.second])

        mock.clearNotifications()
        XCTAssertTrue(mock.notifications.isEmpty)
    }

    func testWaitReturnsOnceEnoughArrive() async throws {
        let mock = try await APNsMock.start()
        addTeardownBlock { await mock.stop() }
        async let waited = mock.waitForNotifications(count: 2, timeout: .seconds(30))
        let sender = try await RawSender.connect(to: mock)
        try await sender.send(Payloads.shipped)
        try await sender.send(Payloads.delayed)
        await sender.close()
        let received = try await waited
        XCTAssertEqual(received.map(\.alertTitle), ["Your order shipped", "Order delayed"])

        let filtered = try await mock.waitForNotifications(count: 1, matching: RecordFilter(token: Tokens.first), timeout: .seconds(30))
        XCTAssertEqual(filtered.count, 2, "returns every matching record held, not just `count`")
    }

    func testWaitTimeoutListsWhatArrived() async throws {
        let mock = try await APNsMock.start()
        addTeardownBlock { await mock.stop() }
        do {
            try await mock.waitForNotifications(count: 1, timeout: .milliseconds(50))
            XCTFail("nothing was sent, so the wait should time out")
        } catch {
            XCTAssertTrue(error.description.contains("but 0 arrived; the mock received nothing at all"), error.description)
        }

        let sender = try await RawSender.connect(to: mock)
        try await sender.send(Payloads.shipped)
        await sender.close()
        do {
            try await mock.waitForNotifications(count: 1, matching: RecordFilter(token: Tokens.second), timeout: .milliseconds(50))
            XCTFail("no push went to the second token")
        } catch {
            guard case .timedOut(let expected, let matched, _, let received) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(expected, 1)
            XCTAssertEqual(matched, 0)
            XCTAssertEqual(received.count, 1)
            XCTAssertTrue(error.description.contains("The mock received:\n  #1 alert push to 00fc13ad…1de8f0"), error.description)
        }
    }

    func testProductionEnvironmentOmitsUniqueID() async throws {
        var options = APNsMockOptions()
        options.environment = .production
        let mock = try await APNsMock.start(options)
        addTeardownBlock { await mock.stop() }
        let sender = try await RawSender.connect(to: mock)
        let answer = try await sender.send(Payloads.shipped)
        await sender.close()
        XCTAssertEqual(answer.status, 200)
        XCTAssertNil(answer.header("apns-unique-id"))
    }

    func testCleartextOption() async throws {
        var options = APNsMockOptions()
        options.tls = false
        let mock = try await APNsMock.start(options)
        addTeardownBlock { await mock.stop() }
        XCTAssertEqual(mock.url, "http://127.0.0.1:\(mock.port)")
        let sender = try await RawSender.connect(to: mock)
        let answer = try await sender.send(Payloads.shipped)
        await sender.close()
        XCTAssertEqual(answer.status, 200)
    }

    func testTrustAnySignatureAcceptsAnUnknownKey() async throws {
        // The bundled OTHERKEY01 signs, but claims to be a key the mock has never seen.
        let pem = try String(contentsOfFile: RepoPaths.cert("AuthKey_OTHERKEY01.p8"), encoding: .utf8)
        let stranger = TestSigningKey(teamID: "STRANGER01", keyID: "UNKNOWN001", privateKeyPEM: pem)

        let strict = try await APNsMock.start()
        addTeardownBlock { await strict.stop() }
        let strictSender = try await RawSender.connect(to: strict, key: stranger)
        let refused = try await strictSender.send(Payloads.shipped)
        await strictSender.close()
        XCTAssertEqual(refused.status, 403)
        XCTAssertEqual(refused.reason, "InvalidProviderToken")
        await strict.stop()

        var options = APNsMockOptions()
        options.trustAnySignature = true
        let lenient = try await APNsMock.start(options)
        addTeardownBlock { await lenient.stop() }
        let sender = try await RawSender.connect(to: lenient, key: stranger)
        let accepted = try await sender.send(Payloads.shipped)
        await sender.close()
        XCTAssertEqual(accepted.status, 200)
    }

    func testDevicesAndFaultsFilesAreLoaded() async throws {
        let folder = URL(fileURLWithPath: try makeTestDirectory("apnstesting"))
        let devices = folder.appendingPathComponent("devices.json").path
        let faults = folder.appendingPathComponent("faults.json").path
        try #"[{"token":"\#(Tokens.second)","state":"unregistered"}]"#.write(toFile: devices, atomically: true, encoding: .utf8)
        try #"{"rules":[{"match":{"token":"\#(Tokens.third)"},"count":1,"action":{"type":"status","status":503}}]}"#
            .write(toFile: faults, atomically: true, encoding: .utf8)

        var options = APNsMockOptions()
        options.devicesFile = devices
        options.faultsFile = faults
        let mock = try await APNsMock.start(options)
        addTeardownBlock { await mock.stop() }
        XCTAssertEqual(mock.devices[Tokens.second], .unregistered(timestamp: nil))
        let sender = try await RawSender.connect(to: mock)
        let statuses = [
            try await sender.send(Payloads.shipped, to: Tokens.second).status,
            try await sender.send(Payloads.shipped, to: Tokens.third).status,
            try await sender.send(Payloads.shipped, to: Tokens.third).status,
        ]
        await sender.close()
        XCTAssertEqual(statuses, [410, 503, 200])
    }

    func testUnreadableFilesSayWhatToFix() async {
        var options = APNsMockOptions()
        options.devicesFile = "/nonexistent/devices.json"
        do {
            _ = try await APNsMock.start(options)
            XCTFail("a missing devices file must not start")
        } catch {
            XCTAssertEqual(error.description,
                           "the APNs mock could not start: cannot read /nonexistent/devices.json: check the path and permissions")
        }
        options = APNsMockOptions()
        options.credentialsDirectory = "/nonexistent"
        do {
            _ = try await APNsMock.start(options)
            XCTFail("a missing credentials folder must not start")
        } catch {
            XCTAssertTrue(error.description.hasPrefix("cannot read /nonexistent/ca.pem"), error.description)
        }
    }

    func testWithMockStopsTheMockWhenTheBodyThrows() async throws {
        struct Boom: Error {}
        var port = 0
        do {
            try await APNsMock.withMock { mock in
                port = mock.port
                throw Boom()
            }
            XCTFail("the body's error is rethrown")
        } catch is Boom {}
        // The port is free again: a plain TCP connect is refused.
        XCTAssertFalse(LoopbackConnection.canConnect(port: port))
    }

    func testResetForgetsRecordsDevicesAndFaults() async throws {
        let mock = try await APNsMock.start()
        addTeardownBlock { await mock.stop() }
        mock.unregister(token: Tokens.first)
        mock.failNext(5)
        let sender = try await RawSender.connect(to: mock)
        try await sender.send(Payloads.shipped)
        mock.reset()
        XCTAssertTrue(mock.notifications.isEmpty)
        XCTAssertTrue(mock.devices.isEmpty)
        let after = try await sender.send(Payloads.shipped)
        XCTAssertEqual(after.status, 200)
        await sender.close()
    }
}
