import APNsModel
import Foundation
import MockAPNs
import MockAPNsHTTP1
import TestSupport
import XCTest

/// The HTTP/1.1 endpoint's connection handling and limits: keep-alive and pipelining, the HTTP/2 listener's body
/// and header limits, bad input, browser origins, and how connection churn reads a keep-alive pool.
final class HTTP1ConnectionTests: LeakCheckedTestCase {
    private let device = String(repeating: "ab", count: 32)
    /// One token for the whole test, as a sender reuses it: a fresh one per push changes when the clock crosses a
    /// second, and the mock answers the change `429 TooManyProviderTokenUpdates`.
    private let bearer = TokenFixture.bearer()

    private func withEndpoint(churnLimit: Int? = nil,
                              _ body: (Mock, Int) async throws -> Void) async throws {
        let mock = try TestMock.anySignature { configuration in
            if let churnLimit { configuration.newConnectionsPerSecondLimit = churnLimit }
        }
        addTeardownBlock { mock.shutdown() }
        let endpoint = try APNsHTTP1Listener(mock: mock)
        let port = try await endpoint.start()
        do {
            try await body(mock, port)
        } catch {
            await endpoint.stop()
            throw error
        }
        await endpoint.stop()
    }

    private func push(_ id: String, body: String = #"{"aps":{"alert":"hi"}}"#, extra: [String] = []) throws -> String {
        RawHTTP1Connection.request("POST", "/3/device/\(device)", headers: [
            "authorization: bearer \(bearer)", "apns-topic: com.example.app", "apns-push-type: alert",
            "apns-id: \(id)",
        ] + extra, body: body)
    }

    func testPipelinedRequestsOnOneConnectionAreAnsweredInOrder() async throws {
        try await withEndpoint { mock, port in
            let ids = (1...5).map { String(format: "5E8F1A2B-0000-4000-8000-%012d", $0) }
            let connection = try RawHTTP1Connection(port: port)
            try connection.send(try ids.map { try push($0) }.joined())
            var answered: [String] = []
            for _ in ids {
                let answer = try XCTUnwrap(try connection.readAnswer(), "the connection closed early")
                XCTAssertEqual(answer.status, 200, answer.body)
                answered.append(answer.headers["apns-id"] ?? "")
            }
            XCTAssertEqual(answered, ids)
            let records = mock.recorder.records()
            XCTAssertEqual(Set(records.map(\.connectionID)).count, 1, "one keep-alive connection")
            XCTAssertEqual(records.map(\.response.status), [200, 200, 200, 200, 200])
        }
    }

    func testABodyOverTheLimitIsAnswered413AndTheConnectionStaysUsable() async throws {
        try await withEndpoint { mock, port in
            let prefix = #"{"aps":{"alert":"x"},"pad":""#
            let padding = String(repeating: "a", count: 4097 - prefix.utf8.count - 2)
            let body = prefix + padding + #""}"#
            XCTAssertEqual(body.utf8.count, 4097)
            let connection = try RawHTTP1Connection(port: port)
            try connection.send(try push("5E8F1A2B-0000-4000-8000-000000000001", body: body))
            let tooLarge = try XCTUnwrap(try connection.readAnswer())
            XCTAssertEqual(tooLarge.status, 413)
            XCTAssertEqual(tooLarge.body, #"{"reason":"PayloadTooLarge"}"#)
            // A body past the 64 KiB read limit too: cut, still judged too large, and the connection survives it.
            try connection.send(try push("5E8F1A2B-0000-4000-8000-000000000002", body: String(repeating: "b", count: 200_000)))
            XCTAssertEqual(try connection.readAnswer()?.status, 413)
            try connection.send(try push("5E8F1A2B-0000-4000-8000-000000000003"))
            XCTAssertEqual(try connection.readAnswer()?.status, 200)
            XCTAssertEqual(mock.recorder.records().map(\.response.status), [413, 413, 200])
        }
    }

    func testAHeaderListOverTheLimitIsAnswered431AndRecorded() async throws {
        try await withEndpoint { mock, port in
            let connection = try RawHTTP1Connection(port: port)
            try connection.send(try push("5E8F1A2B-0000-4000-8000-000000000001", extra: ["x-padding: " + String(repeating: "p", count: 9000)]))
            let answer = try XCTUnwrap(try connection.readAnswer())
            XCTAssertEqual(answer.status, 431)
            let record = try XCTUnwrap(mock.recorder.records().last)
            XCTAssertEqual(record.response.status, 431)
            XCTAssertEqual(record.path, "/3/device/\(device)")
            XCTAssertEqual(record.streamID, 0)
        }
    }

    func testGarbageIsAnswered400AndTheEndpointKeepsServing() async throws {
        try await withEndpoint { mock, port in
            let garbage = try RawHTTP1Connection(port: port)
            try garbage.send("\u{01}\u{02} NOT HTTP\r\n\r\n")
            XCTAssertEqual(try garbage.readAnswer()?.status, 400)
            XCTAssertTrue(try garbage.isClosedByServer())
            let next = try RawHTTP1Connection(port: port)
            try next.send(try push("5E8F1A2B-0000-4000-8000-000000000001"))
            XCTAssertEqual(try next.readAnswer()?.status, 200)
            XCTAssertEqual(mock.recorder.records().count, 1, "garbage is not a request and leaves no record")
        }
    }

    func testConnectionCloseIsHonoured() async throws {
        try await withEndpoint { _, port in
            let connection = try RawHTTP1Connection(port: port)
            try connection.send(try push("5E8F1A2B-0000-4000-8000-000000000001", extra: ["connection: close"]))
            let answer = try XCTUnwrap(try connection.readAnswer())
            XCTAssertEqual(answer.status, 200)
            XCTAssertEqual(answer.headers["connection"], "close")
            XCTAssertTrue(try connection.isClosedByServer())
        }
    }

    func testAKeepAlivePoolIsNotChurnButAConnectionPerPushIs() async throws {
        try await withEndpoint(churnLimit: 3) { mock, port in
            // A pool of 12 keep-alive connections, all open at once, each carrying several pushes: how HTTP/1.1
            // senders (APNSwift among them) work, four times the limit.
            let pool = try (0..<12).map { _ in try RawHTTP1Connection(port: port) }
            for round in 0..<3 {
                for (index, connection) in pool.enumerated() {
                    try connection.send(try push(String(format: "5E8F1A2B-0000-4000-8000-%06d%06d", round, index)))
                }
                for connection in pool { XCTAssertEqual(try connection.readAnswer()?.status, 200) }
            }
            XCTAssertEqual(mock.pipeline.churnFlaggedConnections, 0, "a keep-alive pool was flagged as churn")
            XCTAssertFalse(mock.recorder.records().contains { $0.lint.contains { $0.id == "new-connection-per-push" } })

            // One push per connection, each closed and replaced: churn.
            for index in 0..<8 {
                let connection = try RawHTTP1Connection(port: port)
                try connection.send(try push(String(format: "5E8F1A2B-0000-4000-8001-%012d", index), extra: ["connection: close"]))
                XCTAssertEqual(try connection.readAnswer()?.status, 200)
                XCTAssertTrue(try connection.isClosedByServer())
            }
            XCTAssertGreaterThan(mock.pipeline.churnFlaggedConnections, 0, "a connection per push was not flagged")
            XCTAssertTrue(mock.recorder.records().contains { $0.lint.contains { $0.id == "new-connection-per-push" } })
        }
    }

    /// `stop()` closes what is still open, an idle keep-alive connection and one in the middle of a request, on loops
    /// of the endpoint's own (stopping them closes their connections) and on SwiftNIO's shared loops (which go on).
    func testStopClosesOpenConnectionsOnOwnAndSharedLoops() async throws {
        for loops in [.own(1), .shared] as [ListenerConfiguration.Loops] {
            let mock = try TestMock.anySignature()
            addTeardownBlock { mock.shutdown() }
            var configuration = ListenerConfiguration.plainHTTP1
            configuration.loops = loops
            let endpoint = try APNsHTTP1Listener(mock: mock, configuration: configuration)
            let port = try await endpoint.start()
            let idle = try RawHTTP1Connection(port: port)
            let stalled = try RawHTTP1Connection(port: port)
            for (index, connection) in [idle, stalled].enumerated() {
                try connection.send(try push(String(format: "5E8F1A2B-0000-4000-8000-%012d", index)))
                XCTAssertEqual(try connection.readAnswer()?.status, 200)
            }
            try stalled.send("POST /3/device/\(device) HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-length: 100\r\n\r\n{\"aps\"")
            await endpoint.stop()
            XCTAssertTrue(try idle.isClosedByServer(), "loops: \(loops)")
            XCTAssertTrue(try stalled.isClosedByServer(), "loops: \(loops)")
        }
    }

    /// The listener's connection limit and idle timeout hold on HTTP/1.1 as on HTTP/2: a connection past the limit is
    /// closed as it arrives, and one left idle is closed once the timeout passes.
    func testTheConnectionLimitAndTheIdleTimeoutHold() async throws {
        let mock = try TestMock.anySignature()
        addTeardownBlock { mock.shutdown() }
        var configuration = ListenerConfiguration.plainHTTP1
        configuration.maxConnections = 1
        configuration.idleTimeout = .milliseconds(300)
        let endpoint = try APNsHTTP1Listener(mock: mock, configuration: configuration)
        let port = try await endpoint.start()
        let first = try RawHTTP1Connection(port: port)
        try first.send(try push("5E8F1A2B-0000-4000-8000-000000000001"))
        XCTAssertEqual(try first.readAnswer()?.status, 200)
        let second = try RawHTTP1Connection(port: port)
        XCTAssertTrue(try second.isClosedByServer(), "a connection past maxConnections is closed")
        let started = ContinuousClock.now
        XCTAssertTrue(try first.isClosedByServer(), "an idle connection is closed")
        XCTAssertGreaterThanOrEqual(ContinuousClock.now - started, .milliseconds(100), "not before the timeout")
        // Its slot is free again once the listener has seen it close, which can come a moment after the client
        // sees the close: a connection made before then is still past the limit.
        var attempt = 0
        let served = try await Poll.until(timeout: .seconds(10), every: .milliseconds(20)) {
            attempt += 1
            let third = try RawHTTP1Connection(port: port)
            try third.send(try push(String(format: "5E8F1A2B-0000-4000-8000-%012d", 1 + attempt)))
            return try third.readAnswer()?.status == 200
        }
        XCTAssertTrue(served, "a connection is served again once the idle one is gone")
        await endpoint.stop()
    }

    /// TLS and Apple's names are the HTTP/2 listener's; the HTTP/1.1 listener refuses them with a sentence.
    func testTLSAndAppleHostsAreRefused() throws {
        let mock = try TestMock.anySignature()
        addTeardownBlock { mock.shutdown() }
        XCTAssertThrowsError(try APNsHTTP1Listener(mock: mock, configuration: ListenerConfiguration())) { error in
            XCTAssertEqual("\(error)", "The HTTP/1.1 APNs endpoint serves plain HTTP only, so it takes no TLS identity: set `tls` "
                + "and `appleHosts` to nil (ListenerConfiguration.plainHTTP1), and serve TLS with the HTTP/2 listener.")
        }
        var apple = ListenerConfiguration.plainHTTP1
        apple.appleHosts = ListenerConfiguration.AppleHostPorts()
        XCTAssertThrowsError(try APNsHTTP1Listener(mock: mock, configuration: apple)) { error in
            XCTAssertTrue("\(error)".contains("takes no Apple host names"), "\(error)")
        }
    }

    /// Several `start()`s at once: one binds and serves, the others are refused at once and leave its connections alone.
    func testConcurrentStartsAreRefusedButTheOneThatWonKeepsServing() async throws {
        let mock = try TestMock.anySignature()
        addTeardownBlock { mock.shutdown() }
        let endpoint = try APNsHTTP1Listener(mock: mock, configuration: .plainHTTP1)
        let starts = (0..<8).map { _ in Task { try await endpoint.start() } }
        var ports: [Int] = []
        for start in starts {
            switch await start.result {
            case .success(let port): ports.append(port)
            case .failure(let error):
                guard case .notStartable = error as? APNsHTTP1ListenerError else { return XCTFail("\(error)") }
            }
        }
        XCTAssertEqual(ports.count, 1)
        XCTAssertEqual(ports, endpoint.port.map { [$0] })
        let connection = try RawHTTP1Connection(port: try XCTUnwrap(ports.first))
        try connection.send(try push("5E8F1A2B-0000-4000-8000-000000000001"))
        XCTAssertEqual(try connection.readAnswer()?.status, 200)
        await endpoint.stop()
    }

    func testTheHTTP1APNsEndpointRefusesForeignOriginsWithoutRecordingThem() async throws {
        let mock = try TestMock.anySignature()
        addTeardownBlock { mock.shutdown() }
        let endpoint = try APNsHTTP1Listener(mock: mock)
        addTeardownBlock { await endpoint.stop() }
        let port = try await endpoint.start()
        let url = "http://127.0.0.1:\(port)/3/device/\(String(repeating: "ab", count: 32))"
        let headers = ["apns-topic: com.example.app", "Content-Type: text/plain"]
        let foreign = try CurlRequest.send("POST", url, headers: headers + ["Origin: http://evil.example"], body: #"{"aps":{}}"#)
        let anyHost = try CurlRequest.send("POST", url, headers: headers + ["Host: mock.internal:\(port)"], body: #"{"aps":{}}"#)
        let records = mock.recorder.records()
        await endpoint.stop()
        XCTAssertEqual(foreign.status, 403)
        XCTAssertEqual(foreign.body, #"{"reason":"Forbidden"}"#)
        XCTAssertEqual(anyHost.body, #"{"reason":"MissingProviderToken"}"#, "any Host reaches the pipeline")
        XCTAssertEqual(records.count, 1, "the foreign page's request was recorded")
    }
}
