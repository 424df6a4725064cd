import APNsClient
import APNsTesting
import Foundation
import MockAPNs
import PeerSupport
import XCTest

/// `APNsMockOptions.relay`: an embedded mock relays the pushes it accepts to a second in-process mock (the upstream,
/// configured by its `relayConfiguration`), as `mockapns serve --relay` does between processes. The sender gets the
/// upstream's answer, both mocks record the push, and a push the relaying mock rejects itself never goes up.
final class RelayTests: LeakCheckedTestCase {
    private func send(_ client: APNsClient, to token: String) async -> Result<APNsResponse, APNsClientError> {
        do {
            return .success(try await client.send(
                APNsNotification.alert(bundleID: "com.example.shop", title: "Your order shipped", body: "Order 42"), deviceToken: token))
        } catch {
            return .failure(error)
        }
    }

    func testTheSenderGetsTheUpstreamsAnswerAndBothMocksRecordThePush() async throws {
        let upstream = try await APNsMock.start()
        addTeardownBlock { await upstream.stop() }
        upstream.unregister(token: Tokens.second, since: Date(timeIntervalSince1970: 1_700_000_000))
        var options = APNsMockOptions()
        options.relay = upstream.relayConfiguration
        try await APNsMock.withMock(options) { mock in
            mock.unregister(token: Tokens.third)   // the relaying mock's own 410: answered there, not relayed
            let client = try mock.makeClient { $0.retryPolicy = .never }
            let accepted = await send(client, to: Tokens.first)
            let goneUpstream = await send(client, to: Tokens.second)
            let goneHere = await send(client, to: Tokens.third)
            await client.shutdown()

            let apnsID = try accepted.get().apnsID
            guard case let .failure(.rejected(status, reason, timestamp, _)) = goneUpstream else {
                return XCTFail("the upstream's 410 reaches the sender: \(goneUpstream)")
            }
            XCTAssertEqual(status, 410)
            XCTAssertEqual(reason.reason, .unregistered)
            XCTAssertEqual(timestamp, 1_700_000_000_000, "the upstream's timestamp, not the relaying mock's")
            guard case .failure(.rejected(410, .known(.unregistered), _, _)) = goneHere else { return XCTFail("\(goneHere)") }

            let relayed = mock.notifications
            XCTAssertEqual(relayed.map(\.deviceToken), [Tokens.first, Tokens.second, Tokens.third])
            XCTAssertEqual(relayed.map(\.record.response.status), [200, 200, 410], "the relaying mock's own verdicts")
            XCTAssertEqual(relayed.map { $0.record.relay?.status }, [200, 410, 0], "the upstream's (0: not relayed)")
            XCTAssertTrue(relayed[1].record.lint.contains { $0.id == RelayVerdict.disagreementFindingID }, "\(relayed[1].record.lint)")
            XCTAssertNotNil(relayed[2].record.relay?.skipped)
            XCTAssertEqual(mock.mock.relayStatistics?.relayed, 2)

            let received = try await upstream.waitForNotifications(count: 2, timeout: .seconds(10))
            XCTAssertEqual(received.map(\.deviceToken), [Tokens.first, Tokens.second], "exactly the relayed pushes")
            XCTAssertEqual(received.map(\.record.response.status), [200, 410])
            XCTAssertEqual(received[0].apnsID, apnsID, "the sender got the upstream's apns-id")
            XCTAssertEqual(received[0].alertTitle, "Your order shipped")
            XCTAssertEqual(received[0].record.auth.keyID, upstream.testKey.keyID, "re-signed with the upstream's test key")
        }
    }

    /// With `relayRejected`, a push the relaying mock's rules refuse goes up too (the rejection keeps the route the
    /// rules resolved), and the sender gets the upstream's own answer to it.
    func testRelayRejectedSendsAPushTheRulesRefuseUpstream() async throws {
        let upstream = try await APNsMock.start()
        addTeardownBlock { await upstream.stop() }
        var options = APNsMockOptions()
        options.relay = upstream.relayConfiguration
        options.relayRejected = true
        try await APNsMock.withMock(options) { mock in
            let client = try mock.makeClient { $0.retryPolicy = .never }
            let refused = await send(client, to: "not-a-device-token")
            await client.shutdown()
            guard case .failure(.rejected(400, .known(.badDeviceToken), _, _)) = refused else {
                return XCTFail("the upstream's 400 BadDeviceToken reaches the sender: \(refused)")
            }
            let record = try XCTUnwrap(mock.notifications.first?.record)
            XCTAssertEqual(record.deviceToken, "not-a-device-token")
            XCTAssertEqual(record.response.status, 400, "the relaying mock's own verdict")
            XCTAssertEqual(record.relay?.status, 400, "the upstream's: \(String(describing: record.relay))")
            XCTAssertEqual(record.relay?.reason, "BadDeviceToken")
            let received = try await upstream.waitForNotifications(count: 1, timeout: .seconds(10))
            XCTAssertEqual(received.map(\.deviceToken), ["not-a-device-token"], "the refused push went up")
        }
    }

    /// `relayMatch` relays only the pushes its search matches (the mock answers the rest, their records saying why),
    /// and `recordsRelayedCredentials` keeps a relayed push's provider token whole in its record.
    func testRelayMatchChoosesWhatGoesUpAndRecordsRelayedCredentialsKeepTheToken() async throws {
        let upstream = try await APNsMock.start()
        addTeardownBlock { await upstream.stop() }
        var options = APNsMockOptions()
        options.relay = upstream.relayConfiguration
        options.relayMatch = "token:\(Tokens.first)"
        options.recordsRelayedCredentials = true
        try await APNsMock.withMock(options) { mock in
            let client = try mock.makeClient { $0.retryPolicy = .never }
            let first = await send(client, to: Tokens.first)
            let second = await send(client, to: Tokens.second)
            await client.shutdown()
            XCTAssertNoThrow(try first.get())
            XCTAssertNoThrow(try second.get(), "the mock itself accepts what it does not relay")
            let records = mock.notifications.map(\.record)
            XCTAssertEqual(records.map(\.deviceToken), [Tokens.first, Tokens.second])
            XCTAssertEqual(records.map { $0.relay?.status }, [200, 0], "the second was not relayed")
            XCTAssertNotNil(records[1].relay?.skipped)
            let authorization = try XCTUnwrap(records[0].header("authorization"))
            XCTAssertEqual(authorization.split(separator: ".", omittingEmptySubsequences: false).count, 3, authorization)
            XCTAssertFalse(authorization.hasSuffix("."), "the signature is kept: \(authorization)")
            let received = try await upstream.waitForNotifications(count: 1, timeout: .seconds(10))
            XCTAssertEqual(received.map(\.deviceToken), [Tokens.first], "only the matching push went up")
        }
    }

    /// Without `recordsRelayedCredentials`, the record keeps the token's header and claims but not its signature.
    func testARelayedPushIsRecordedWithoutItsTokensSignatureByDefault() async throws {
        let upstream = try await APNsMock.start()
        addTeardownBlock { await upstream.stop() }
        var options = APNsMockOptions()
        options.relay = upstream.relayConfiguration
        try await APNsMock.withMock(options) { mock in
            let client = try mock.makeClient { $0.retryPolicy = .never }
            let sent = await send(client, to: Tokens.first)
            await client.shutdown()
            XCTAssertNoThrow(try sent.get())
            let authorization = try XCTUnwrap(mock.notifications.first?.record.header("authorization"))
            XCTAssertTrue(authorization.hasSuffix("."), "the signature is cut off: \(authorization)")
        }
    }

    /// A relay at its `maxInFlight` answers the next push `429 TooManyRequests` at once, without queueing it or
    /// sending it up, and the push in flight still gets the upstream's answer.
    func testARelayAtItsInFlightBoundAnswers429AtOnce() async throws {
        let upstream = try await APNsMock.start()
        addTeardownBlock { await upstream.stop() }
        let stall = upstream.delayNext(by: .seconds(2), token: Tokens.first)
        var relay = upstream.relayConfiguration
        relay.maxInFlight = 1
        var options = APNsMockOptions()
        options.relay = relay
        try await APNsMock.withMock(options) { mock in
            let client = try mock.makeClient { $0.retryPolicy = .never }
            let slow = Task {
                try await client.send(APNsNotification.alert(bundleID: "com.example.shop", title: "Slow", body: "Up there"),
                                      deviceToken: Tokens.first)
            }
            let upThere = try await Poll.until(timeout: .seconds(10), every: .milliseconds(5)) { upstream.timesFired(stall) == 1 }
            XCTAssertTrue(upThere, "the first push never reached the upstream")
            let refused = await send(client, to: Tokens.second)
            guard case .failure(.rejected(429, .known(.tooManyRequests), _, _)) = refused else {
                return XCTFail("the push over the bound is answered 429 TooManyRequests: \(refused)")
            }
            let answered = await slow.result
            XCTAssertNoThrow(try answered.get(), "the push in flight gets the upstream's 200")
            await client.shutdown()
            let records = mock.notifications.map(\.record)
            XCTAssertEqual(records.map(\.deviceToken), [Tokens.second, Tokens.first], "in the order they were answered")
            XCTAssertEqual(records.map { $0.relay?.status }, [429, 200])
            XCTAssertEqual(records[0].relay?.error?.contains("maxInFlight"), true, "\(String(describing: records[0].relay))")
            let received = try await upstream.waitForNotifications(count: 1, timeout: .seconds(10))
            XCTAssertEqual(received.map(\.deviceToken), [Tokens.first], "the refused push never went up")
        }
    }

    /// Why `APNsMock.start(options)` refused to start; nil (and a stopped mock) when it started.
    private func refusal(_ options: APNsMockOptions) async -> String? {
        do {
            let mock = try await APNsMock.start(options)
            await mock.stop()
            return nil
        } catch {
            return error.description
        }
    }

    func testARelayMatchThatDoesNotParseStopsTheStart() async {
        var options = APNsMockOptions()
        options.relay = RelayConfiguration(upstream: .custom(url: "https://127.0.0.1:1"))
        options.relayMatch = "status:often"
        let refused = await refusal(options)
        XCTAssertEqual(refused, "the APNs mock could not start: relayMatch \"status:often\": "
            + "'status:often' is not a status: use a code such as 200 or 410, or a class such as 4xx.")
    }

    func testARelayThatCannotBeMadeStopsTheStartWithTheFieldToFix() async {
        var options = APNsMockOptions()
        options.relay = RelayConfiguration(upstream: .custom(url: "ftp://upstream.example"))
        let refused = await refusal(options)
        XCTAssertEqual(refused, "the APNs mock could not start: the relay's upstream cannot be used: "
            + "ftp://upstream.example: the scheme must be https (TLS) or http (h2c), not ftp")
    }
}
