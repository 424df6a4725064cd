import APNsModel
import Foundation
import TestSupport
import XCTest
@testable import MockAPNs
@testable import MockAPNsRecording

/// Rules that live on the connection: the stream limit before authentication, token binding and
/// refresh rate, GOAWAY faults.
final class ConnectionRuleTests: H2PeerTestCase {
    func testOneStreamAfterARejectionUntilTheFirstValidTokenSucceeds() async throws {
        let server = try await TestServer.start()
        addTeardownBlock { await server.stop() }
        let jwt = try TestTokens.jwt()
        let outcome = try H2Requests.run(port: server.port, [.push(jwt: "not-a-token"), .push(jwt: nil), .push(jwt: jwt), .push(jwt: jwt)])
        XCTAssertEqual(outcome.responses.map(\.status), [403, 403, 200, 200])
        XCTAssertEqual(outcome.responses[0].maxConcurrentStreams, 1, "one stream once a request is rejected before any success")
        XCTAssertEqual(outcome.responses[1].maxConcurrentStreams, 1)
        XCTAssertEqual(outcome.responses[3].maxConcurrentStreams, 1000, "the full limit again after the first success")
    }

    /// A flight of pushes sent before the client could read the lowered limit is answered stream by stream
    /// (RFC 9113 §5.1.2 lets open streams complete): no REFUSED_STREAM, each gets its own verdict.
    func testStreamsOpenWhenTheLimitDropsAreAllAnswered() async throws {
        let server = try await TestServer.start()
        addTeardownBlock { await server.stop() }
        let expired = try TestTokens.jwt(offset: -7200)
        let flight = Array(repeating: H2Requests.Request.push(jwt: expired), count: 20)
        let outcome = try H2Requests.run(port: server.port, burst: true, flight)
        XCTAssertEqual(outcome.responses.count, 20)
        XCTAssertEqual(outcome.responses.compactMap(\.reset), [], "no stream of the flight is reset")
        XCTAssertEqual(outcome.responses.compactMap(\.error), [])
        XCTAssertEqual(outcome.responses.map(\.status), Array(repeating: 403, count: 20))
        XCTAssertEqual(outcome.responses.map(\.reason), Array(repeating: "ExpiredProviderToken", count: 20))
    }

    func testAFreshConnectionTakesParallelStreamsWithAValidToken() async throws {
        let server = try await TestServer.start()
        addTeardownBlock { await server.stop() }
        let jwt = try TestTokens.jwt()
        let outcome = try H2Requests.run(port: server.port, parallel: true, Array(repeating: .push(jwt: jwt), count: 5))
        XCTAssertEqual(outcome.responses.filter { $0.status == 200 }.count, 5, "a fresh connection with a valid token is not limited")
    }

    func testSuccessFirstNeverLimitsTheConnection() async throws {
        let server = try await TestServer.start()
        addTeardownBlock { await server.stop() }
        let jwt = try TestTokens.jwt()
        let outcome = try H2Requests.run(port: server.port, [.push(jwt: jwt), .push(jwt: jwt, topic: "com.example.app.voip")])
        XCTAssertEqual(outcome.responses.map(\.status), [200, 400])
        XCTAssertEqual(outcome.responses.last?.maxConcurrentStreams, 1000, "a rejection after a success does not limit")
    }

    func testCertificateConnectionsGetTheFullLimitAtOnce() async throws {
        let server = try await TestServer.start()
        addTeardownBlock { await server.stop() }
        let outcome = try H2Requests.run(port: server.port, certificate: "client-app", [.push(jwt: nil)])
        XCTAssertEqual(outcome.responses.first?.status, 200)
        XCTAssertEqual(outcome.responses.first?.maxConcurrentStreams, 1000)
    }

    func testNewTokenWithinTwentyMinutesIsTooManyUpdates() async throws {
        let server = try await TestServer.start()
        addTeardownBlock { await server.stop() }
        let outcome = try H2Requests.run(port: server.port, [
            .push(jwt: try TestTokens.jwt(offset: -30)),
            .push(jwt: try TestTokens.jwt(offset: -10)),
        ])
        XCTAssertEqual(outcome.responses.map(\.status), [200, 429])
        XCTAssertEqual(outcome.responses.last?.reason, "TooManyProviderTokenUpdates")
    }

    func testAnotherTeamOnABoundConnectionIsRefused() async throws {
        let server = try await TestServer.start()
        addTeardownBlock { await server.stop() }
        let outcome = try H2Requests.run(port: server.port, [
            .push(jwt: try TestTokens.jwt()),
            .push(jwt: try TestTokens.jwt(keyID: "OTHERKEY01", teamID: "OTHERTEAM1")),
        ])
        XCTAssertEqual(outcome.responses.first?.status, 200)
        XCTAssertEqual(outcome.responses.last?.status, 403)
        XCTAssertNotNil(outcome.responses.last?.reason)
    }

    func testGoAwayFaultAnswersThenClosesWithReason() async throws {
        let server = try await TestServer.start()
        addTeardownBlock { await server.stop() }
        server.mock.faults.add(FaultRule(name: "shutdown", count: 1, action: .goAway(reason: "Shutdown", errorCode: 0)))
        let jwt = try TestTokens.jwt()
        let outcome = try H2Requests.run(port: server.port, [.push(jwt: jwt), .push(jwt: jwt)])
        XCTAssertNil(outcome.responses.first?.status, "the stream that met the fault is not answered")
        XCTAssertEqual(outcome.goAway?["debug"] as? String, #"{"reason":"Shutdown"}"#)
        XCTAssertNil(outcome.responses.last?.status, "no stream after GOAWAY")
        // The server itself keeps serving new connections.
        let again = try H2Requests.run(port: server.port, [.push(jwt: jwt)])
        XCTAssertEqual(again.responses.first?.status, 200)
        XCTAssertEqual(server.recorder.records().first?.faults, ["shutdown"])
        XCTAssertEqual(server.recorder.records().first?.response.reason, "Shutdown")
    }

    func testResetStallAndDropFaultsAreRecorded() async throws {
        let server = try await TestServer.start()
        addTeardownBlock { await server.stop() }
        let jwt = try TestTokens.jwt()
        server.mock.faults.add(FaultRule(name: "reset", count: 1, action: .reset(errorCode: 2)))
        let reset = try H2Requests.run(port: server.port, [.push(jwt: jwt), .push(jwt: jwt)])
        XCTAssertEqual(reset.responses.first?.reset, 2)
        XCTAssertEqual(reset.responses.last?.status, 200)
        server.mock.faults.removeAll()
        server.mock.faults.add(FaultRule(name: "drop", count: 1, action: .drop))
        let drop = try H2Requests.run(port: server.port, [.push(jwt: jwt)])
        XCTAssertNil(drop.responses.first?.status)
        let records = server.recorder.records()
        XCTAssertEqual(records.map(\.faults), [["reset"], [], ["drop"]])
        XCTAssertEqual(records.map(\.response.status), [0, 200, 0])
    }

    func testDelayFaultAnswersLaterWithoutBlockingOthers() async throws {
        let server = try await TestServer.start()
        addTeardownBlock { await server.stop() }
        server.mock.faults.add(FaultRule(name: "slow", token: TestTokens.token64, count: 1, action: .delay(milliseconds: 300)))
        let outcome = try H2Requests.run(port: server.port, [.push(jwt: try TestTokens.jwt())])
        XCTAssertEqual(outcome.responses.first?.status, 200)
        XCTAssertGreaterThanOrEqual(server.recorder.records().first?.durationMicros ?? 0, 300_000)
    }
}
