import AsyncHTTPClient
import APNsModel
import Foundation
import Logging
import MockAPNs
@testable import MockAPNsWebhooks
import TestSupport
import XCTest

/// A recorder's records posted to a real receiver (Tests/Peers/webhook_receiver.py, Python's http.server, which
/// checks signatures as docs/webhooks.md tells receivers to): signed, in order, retried after 500s and honouring
/// `Retry-After`, nothing lost while the receiver is down within the queue bound, and a receiver that never answers
/// costs drops and failures, never the recorder.
final class WebhookDeliveryTests: LeakCheckedTestCase {
    private var directory = ""
    private var peers: [RunningPeer] = []
    // Made per test and shut down after it: an HTTPClient must be shut down before it goes away.
    private var client: HTTPClient?

    override func setUp() async throws {
        client = HTTPClient(eventLoopGroupProvider: .singleton)
        directory = try makeTestDirectory("webhook")
    }

    override func tearDown() async throws {
        for peer in peers { peer.terminate() }
        try? await client?.shutdown()
        client = nil
    }

    /// Starts the receiver on `port` logging to `log`; returns once it listens.
    private func receiver(port: Int, log: String, _ options: [String] = []) throws {
        let peer = try PeerProcess.start(RepoPaths.python, ["-u", RepoPaths.peers + "/webhook_receiver.py", String(port), log] + options)
        peers.append(peer)
        for _ in 0..<300 where !peer.currentStdout.contains("listening") { usleep(20_000) }
        XCTAssertTrue(peer.currentStdout.contains("listening"), "the receiver did not start")
    }

    private func deliveries(_ log: String) -> [JSONValue] {
        guard let text = try? String(contentsOfFile: log, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { try? JSONValue.parse(Array($0.utf8)) }
    }

    private func push(_ recorder: Recorder, token: String = String(repeating: "ab", count: 32), topic: String = "com.example.app") {
        let payload = JSONValue.object([.init("aps", .object([.init("alert", .string("hi"))]))])
        let body = Array(payload.jsonText().utf8)
        recorder.append(RecordedRequest(
            seq: 0, receivedAtMillis: 1_700_000_000_000, connectionID: 1, streamID: 1, remote: "127.0.0.1:1", method: "POST",
            path: "/3/device/\(token)", deviceToken: token,
            headers: [HeaderField(name: "apns-topic", value: topic), HeaderField(name: "apns-push-type", value: "alert")],
            body: body, payload: payload, payloadBytes: body.count,
            auth: RecordedRequest.Authentication(kind: "token", teamID: "TESTTEAM01", keyID: "TESTKEY001"),
            response: RecordedRequest.Response(status: 200, reason: nil, apnsID: UUID().uuidString), faults: [], lint: [],
            durationMicros: 10))
    }

    private func dispatcher(_ recorder: Recorder, port: Int, path: String = "/hook", match: String = "", secret: String? = nil,
                            timeout: Duration = .seconds(5), queueLimit: Int = 10_000, maxAttempts: Int = 8,
                            backoff: WebhookBackoff = WebhookBackoff()) throws -> WebhookDispatcher {
        let target = try WebhookTarget(url: "http://hook:pw@127.0.0.1:\(port)\(path)", match: try SearchQuery(parsing: match),
                                       secret: secret.map { Array($0.utf8) }, timeout: timeout, queueLimit: queueLimit,
                                       maxAttempts: maxAttempts)
        let dispatcher = WebhookDispatcher(target: target, statistics: WebhookStatistics(index: 0, target: target.url),
                                           recorder: recorder, client: try XCTUnwrap(client), logger: Logger(label: "test"), backoff: backoff)
        dispatcher.start()
        return dispatcher
    }

    func testMatchingRecordsArriveSignedInOrderOnce() async throws {
        let port = try PeerProcess.freePort(), log = directory + "/log.jsonl"
        try receiver(port: port, log: log, ["--secret", "s3cret"])
        let recorder = try Recorder(memoryLimit: 1_000)
        let hook = try dispatcher(recorder, port: port, match: "topic:com.example.app", secret: "s3cret")
        for n in 0..<300 { push(recorder, topic: n % 3 == 0 ? "com.example.other" : "com.example.app") }
        let arrived = try await Poll.until { deliveries(log).count >= 200 }
        XCTAssertTrue(arrived, "only \(deliveries(log).count) of 200 arrived")
        let got = deliveries(log)
        XCTAssertEqual(got.count, 200, "each matching record once")
        XCTAssertEqual(got.compactMap { $0["seq"]?.integerValue }, (1...300).filter { ($0 - 1) % 3 != 0 }.map(Int64.init), "in record order")
        XCTAssertTrue(got.allSatisfy { $0["signature_ok"] == .bool(true) }, "every signature checks out")
        XCTAssertEqual(Set(got.compactMap { $0["delivery"]?.stringValue }).count, 200, "a delivery id per record")
        XCTAssertEqual(got.first?["content_type"]?.stringValue, "application/json")
        XCTAssertEqual(got.first?["authorization"]?.stringValue, "Basic " + Data("hook:pw".utf8).base64EncodedString())
        XCTAssertEqual(hook.statistics.delivered, 200)
        XCTAssertEqual(hook.statistics.retried, 0)
        recorder.shutdown()
        await hook.finish(grace: .seconds(5))
    }

    func testARecordIsRetriedAfterTwo500sAndTheNextWaitsForIt() async throws {
        let port = try PeerProcess.freePort(), log = directory + "/log.jsonl"
        try receiver(port: port, log: log, ["--fail-first", "2"])
        let recorder = try Recorder(memoryLimit: 100)
        var fast = WebhookBackoff()
        fast.base = .milliseconds(20)
        let hook = try dispatcher(recorder, port: port, backoff: fast)
        for _ in 0..<5 { push(recorder) }
        let arrived = try await Poll.until { hook.statistics.delivered == 5 }
        XCTAssertTrue(arrived)
        let got = deliveries(log)
        XCTAssertEqual(got.compactMap { $0["seq"]?.integerValue }, [1, 1, 1, 2, 3, 4, 5], "record 1 three times, then the rest in order")
        XCTAssertEqual(got.compactMap { $0["status_sent"]?.integerValue }.prefix(3), [500, 500, 200])
        XCTAssertEqual(Set(got.prefix(3).compactMap { $0["delivery"]?.stringValue }).count, 1, "a retry keeps its delivery id")
        XCTAssertEqual(hook.statistics.delivered, 5)
        XCTAssertEqual(hook.statistics.retried, 2)
        XCTAssertEqual(hook.statistics.failed, 0)
        recorder.shutdown()
        await hook.finish(grace: .seconds(5))
    }

    func testRetryAfterIsHonoured() async throws {
        let port = try PeerProcess.freePort(), log = directory + "/log.jsonl"
        try receiver(port: port, log: log, ["--fail-first", "1", "--retry-after", "2"])
        let recorder = try Recorder(memoryLimit: 100)
        var fast = WebhookBackoff()
        fast.base = .milliseconds(1)
        let hook = try dispatcher(recorder, port: port, backoff: fast)
        push(recorder)
        let arrived = try await Poll.until { deliveries(log).count >= 2 && hook.statistics.delivered == 1 }
        XCTAssertTrue(arrived)
        let times = deliveries(log).compactMap { entry -> Double? in
            if case .double(let value)? = entry["time"] { return value }
            return entry["time"]?.integerValue.map(Double.init)
        }
        XCTAssertEqual(times.count, 2)
        // A lower bound the receiver asked for (not a performance figure): the back-off alone would wait ~1 ms.
        XCTAssertGreaterThanOrEqual((times.last ?? 0) - (times.first ?? 0), 1.9, "the retry came before Retry-After: 2 allowed")
        XCTAssertEqual(hook.statistics.delivered, 1)
        recorder.shutdown()
        await hook.finish(grace: .seconds(5))
    }

    func testAReceiverDownForSecondsLosesNothingWithinTheQueueBound() async throws {
        let port = try PeerProcess.freePort(), log = directory + "/log.jsonl"
        let recorder = try Recorder(memoryLimit: 1_000)
        var quick = WebhookBackoff()
        quick.base = .milliseconds(100)
        quick.cap = .seconds(1)
        let hook = try dispatcher(recorder, port: port, maxAttempts: 1_000, backoff: quick)
        for _ in 0..<50 { push(recorder) }
        try await Task.sleep(for: .seconds(5))   // the receiver is down meanwhile: connection refused, retried
        XCTAssertTrue(deliveries(log).isEmpty)
        try receiver(port: port, log: log)
        let arrived = try await Poll.until { deliveries(log).count >= 50 }
        XCTAssertTrue(arrived, "only \(deliveries(log).count) of 50 arrived")
        XCTAssertEqual(deliveries(log).compactMap { $0["seq"]?.integerValue }, (1...50).map(Int64.init))
        XCTAssertGreaterThan(hook.statistics.retried, 0)
        XCTAssertEqual(hook.statistics.dropped, 0)
        XCTAssertEqual(hook.statistics.failed, 0)
        recorder.shutdown()
        await hook.finish(grace: .seconds(5))
    }

    func testAReceiverThatNeverAnswersCostsDropsAndFailuresNotTheRecorder() async throws {
        let port = try PeerProcess.freePort(), log = directory + "/log.jsonl"
        try receiver(port: port, log: log, ["--hang"])
        let recorder = try Recorder(memoryLimit: 10_000)
        let hook = try dispatcher(recorder, port: port, timeout: .milliseconds(300), queueLimit: 10, maxAttempts: 1)
        for _ in 0..<2_000 { push(recorder) }   // stored at once: the webhook never holds the recorder
        XCTAssertEqual(recorder.lastSequence, 2_000)
        let gaveUp = try await Poll.until { hook.statistics.failed >= 2 && hook.statistics.dropped > 0 }
        XCTAssertTrue(gaveUp, "failed \(hook.statistics.failed), dropped \(hook.statistics.dropped)")
        XCTAssertEqual(hook.statistics.delivered, 0)
        XCTAssertLessThanOrEqual(hook.statistics.failed + hook.statistics.dropped, 2_000)
        recorder.shutdown()
        await hook.finish(grace: .milliseconds(500))
        XCTAssertEqual(hook.statistics.failed + hook.statistics.dropped, 2_000, "every record is delivered, failed or dropped")
    }
}
