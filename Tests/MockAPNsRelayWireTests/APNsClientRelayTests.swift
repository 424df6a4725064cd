import APNsClient
import APNsModel
import Foundation
import MockAPNs
import MockAPNsRelay
import TestSupport
import XCTest

/// `APNsClientRelay` against a second mock in process (the upstream, on a socket): what goes up as the sender sent
/// it, who the relay is to the upstream, and the upstream's answer — or why there is none — as the verdict the
/// pipeline hands the sender and records.
final class APNsClientRelayTests: LeakCheckedTestCase {
    private let good = String(repeating: "ab", count: 32)
    /// Unregistered in the upstream's registry.
    private let gone = String(repeating: "cd", count: 32)

    private var upstream: TestServer!

    override func setUp() async throws {
        upstream = try await TestServer.start()
        try upstream.mock.devices.set(gone, .unregistered(timestamp: 1_700_000_000_000))
    }

    override func tearDown() async throws {
        await upstream?.stop()
    }

    /// A relay to the upstream, trusting its test CA.
    private func relay(_ credentials: RelayCredentials, timeout: Duration = .seconds(10)) throws -> APNsClientRelay {
        try APNsClientRelay(configuration: RelayConfiguration(
            upstream: .custom(url: upstream.url), credentials: credentials,
            trustRootsPEM: try String(contentsOfFile: RepoPaths.cert("ca.pem"), encoding: .utf8), timeout: timeout))
    }

    private func resigning() throws -> RelayCredentials {
        .resign(privateKeyPEM: try String(contentsOfFile: RepoPaths.cert("AuthKey_OTHERKEY01.p8"), encoding: .utf8),
                keyID: "OTHERKEY01", teamID: "OTHERTEAM1")
    }

    private func push(to token: String, authorization: String? = nil, certificate: Bool = false) -> RelayedPush {
        var headers = [HeaderField(name: "apns-push-type", value: "alert"), HeaderField(name: "apns-topic", value: "com.example.app"),
                       HeaderField(name: "apns-id", value: "11111111-2222-3333-4444-555555555555"),
                       HeaderField(name: "apns-collapse-id", value: "order-42"), HeaderField(name: "x-not-apns", value: "kept back")]
        if let authorization { headers.append(HeaderField(name: "authorization", value: authorization)) }
        return RelayedPush(deviceToken: token, headers: headers, body: Array(#"{"aps":{"alert":"relayed"}}"#.utf8),
                           certificateAuthenticated: certificate)
    }

    func testAResignedPushGoesUpAsTheRelayAndTheUpstreamsAnswerComesBack() async throws {
        let relay = try relay(try resigning())
        let accepted = await relay.relay(push(to: good, authorization: "bearer the-senders-own"))
        let unregistered = await relay.relay(push(to: gone))
        await relay.shutdown()

        XCTAssertEqual(accepted.status, 200, "\(accepted)")
        XCTAssertEqual(accepted.apnsID, "11111111-2222-3333-4444-555555555555", "the sender's apns-id went up")
        XCTAssertNotNil(accepted.apnsUniqueID, "the development upstream's apns-unique-id comes back")
        XCTAssertTrue(accepted.upstreamAnswered)
        XCTAssertEqual(unregistered.status, 410)
        XCTAssertEqual(unregistered.reason, "Unregistered")
        XCTAssertEqual(unregistered.timestamp, 1_700_000_000_000)
        XCTAssertNil(unregistered.error, "the upstream answered")

        let records = try await upstream.recorder.waitForRecords(count: 2, timeout: .seconds(10))
        XCTAssertEqual(records.map(\.deviceToken), [good, gone])
        XCTAssertEqual(records.map(\.auth.keyID), ["OTHERKEY01", "OTHERKEY01"], "re-signed with the relay's key, not the sender's")
        XCTAssertEqual(records[0].header("apns-topic"), "com.example.app")
        XCTAssertEqual(records[0].header("apns-collapse-id"), "order-42")
        XCTAssertNil(records[0].header("x-not-apns"), "only the apns-* headers APNs reads are forwarded")
        XCTAssertEqual(records[0].body, Array(#"{"aps":{"alert":"relayed"}}"#.utf8))
    }

    func testAForwardedPushCarriesTheSendersOwnToken() async throws {
        let relay = try relay(.forward())
        let authorization = "bearer " + (try TestTokens.jwt())
        let forwarded = await relay.relay(push(to: good, authorization: authorization))
        let unsigned = await relay.relay(push(to: good))
        await relay.shutdown()

        XCTAssertEqual(forwarded.status, 200, "\(forwarded)")
        XCTAssertEqual(unsigned.status, 403, "no token goes up as none, for the upstream to judge")
        XCTAssertEqual(unsigned.reason, "MissingProviderToken")
        let records = try await upstream.recorder.waitForRecords(count: 2, timeout: .seconds(10))
        XCTAssertEqual(records[0].header("authorization"), authorization)
        XCTAssertEqual(records[0].auth.keyID, "TESTKEY001")
    }

    func testACertificateSenderNeedsTheRelaysOwnCertificate() async throws {
        let bare = try relay(.forward())
        let refused = await bare.relay(push(to: good, certificate: true))
        await bare.shutdown()
        XCTAssertEqual(refused.status, 403)
        XCTAssertEqual(refused.reason, "MissingProviderToken")
        XCTAssertTrue(refused.error?.contains("client certificate") == true, "\(refused)")
        XCTAssertTrue(upstream.recorder.records().isEmpty, "nothing went up")

        let certificate = RelayClientCertificate(
            certificatePEM: try String(contentsOfFile: RepoPaths.cert("client-app.pem"), encoding: .utf8),
            privateKeyPEM: try String(contentsOfFile: RepoPaths.cert("client-app-key.pem"), encoding: .utf8))
        let withCertificate = try relay(.forward(clientCertificate: certificate))
        let accepted = await withCertificate.relay(push(to: good, certificate: true))
        await withCertificate.shutdown()
        XCTAssertEqual(accepted.status, 200, "\(accepted)")
        let records = try await upstream.recorder.waitForRecords(count: 1, timeout: .seconds(10))
        XCTAssertEqual(records[0].auth.kind, "certificate")
    }

    func testAnUnreachableUpstreamIsAnswered503WithTheCause() async throws {
        let port = upstream.port
        await upstream.stop()
        upstream = nil
        let relay = try APNsClientRelay(configuration: RelayConfiguration(
            upstream: .custom(url: "http://127.0.0.1:\(port)"), credentials: try resigning(), timeout: .seconds(1)))
        let verdict = await relay.relay(push(to: good))
        await relay.shutdown()
        XCTAssertEqual(verdict.status, 503)
        XCTAssertEqual(verdict.reason, "ServiceUnavailable")
        XCTAssertNotNil(verdict.error, "why the upstream gave no answer")
        XCTAssertFalse(verdict.upstreamAnswered)
    }
}
