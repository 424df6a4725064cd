import APNsClient
import APNsModel
import TestSupport
import XCTest
@testable import MockAPNs
@testable import MockAPNsRecording

/// Every typed builder, sent to the live mock, is accepted and arrives with the headers the builder promised.
final class TypedNotificationTests: LeakCheckedTestCase {
    func testEveryTokenPushTypeIsAccepted() async throws {
        let server = try await ClientTestServer.start()
        addTeardownBlock { await server.stop() }
        let client = try APNsClient(configuration: try server.configuration(retryPolicy: .never))
        addTeardownBlock { await client.shutdown() }
        let bundle = "com.example.app"
        let liveActivity = JSONValue.object([.init("aps", .object([
            .init("timestamp", .integer(Int64(Date().timeIntervalSince1970))), .init("event", .string("update")),
            .init("content-state", .object([.init("score", .integer(1))])),
        ]))])
        let pushes: [APNsNotification] = [
            .alert(bundleID: bundle, title: "T", body: "B", badge: 1, sound: "default"),
            .background(bundleID: bundle, customData: [.init("sync", .bool(true))]),
            .location(bundleID: bundle),
            .voip(bundleID: bundle, payload: .object([.init("call", .string("x"))])),
            .complication(bundleID: bundle, payload: .object([.init("aps", .object([]))])),
            .fileProvider(bundleID: bundle),
            .liveActivity(bundleID: bundle, payload: liveActivity, priority: .considerPower),
            .pushToTalk(bundleID: bundle),
            .widgets(bundleID: bundle),
            .controls(bundleID: bundle),
        ]
        for push in pushes {
            do {
                let response = try await client.send(push, deviceToken: ClientTestServer.token)
                let record = try XCTUnwrap(server.recorder.record(apnsID: response.apnsID), "\(push.pushType)")
                XCTAssertEqual(record.headers.first { $0.name == "apns-topic" }?.value, push.topic)
                XCTAssertEqual(record.headers.first { $0.name == "apns-push-type" }?.value, push.pushType.rawValue)
                XCTAssertEqual(record.headers.first { $0.name == "authorization" }?.value.hasPrefix("bearer "), true)
                XCTAssertNotNil(response.apnsUniqueID, "development answers carry apns-unique-id")
            } catch {
                XCTFail("\(push.pushType): \(error)")
            }
        }
        // One token for all of them: minted once, reused.
        let tokens = Set(server.recorder.records().compactMap { $0.headers.first { $0.name == "authorization" }?.value })
        XCTAssertEqual(tokens.count, 1)
    }

    func testCertificateConnectionSendsMDMAndAlerts() async throws {
        let server = try await ClientTestServer.start()
        addTeardownBlock { await server.stop() }
        let client = try APNsClient(configuration: try server.configuration(
            authentication: try ClientTestServer.certificate("client-app"), retryPolicy: .never))
        addTeardownBlock { await client.shutdown() }
        var alert = APNsNotification.alert(bundleID: "com.example.app", body: "cert")
        let id = UUID()
        alert.apnsID = id
        let response = try await client.send(alert, deviceToken: ClientTestServer.token)
        XCTAssertEqual(response.apnsID, id.uuidString.lowercased())
        XCTAssertNil(server.recorder.records().first?.headers.first { $0.name == "authorization" })
        await client.shutdown()
        // mdm goes over an MDM push certificate (UID com.apple.mgmt.…), to its UID.
        let mdmClient = try APNsClient(configuration: try server.configuration(
            authentication: try ClientTestServer.certificate("client-mdm"), retryPolicy: .never))
        addTeardownBlock { await mdmClient.shutdown() }
        _ = try await mdmClient.send(APNsNotification.mdm(certificateUID: "com.apple.mgmt.External.0c0ffee0-test", pushMagic: "magic"),
                                     deviceToken: ClientTestServer.token)
    }

    func testUnreachableServerIsAnUnreachableError() async throws {
        let client = try APNsClient(configuration: APNsClientConfiguration(
            environment: .custom(url: "https://127.0.0.1:1"), authentication: try ClientTestServer.testKey(),
            trustRootsPEM: try RepoPaths.text("ca.pem"), requestTimeout: .seconds(1),
            retryPolicy: APNsRetryPolicy(maxAttempts: 2, baseDelay: .milliseconds(1), maxDelay: .milliseconds(1))))
        addTeardownBlock { await client.shutdown() }
        do {
            _ = try await client.send(APNsNotification.widgets(bundleID: "b"), deviceToken: ClientTestServer.token)
            XCTFail("expected an unreachable error")
        } catch {
            guard case let .unreachable(failure) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(failure.address, "127.0.0.1:1")
            XCTAssertTrue(error.description.hasPrefix("could not connect to 127.0.0.1:1: connection refused, "), error.description)
        }
    }
}
