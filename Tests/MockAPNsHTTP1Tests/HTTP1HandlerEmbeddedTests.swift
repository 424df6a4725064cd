import APNsModel
import MockAPNs
import NIOCore
import NIOEmbedded
import NIOHTTP1
import MockTestSupport
import XCTest
@testable import MockAPNsHTTP1

/// The HTTP/1.1 endpoint's connection handler without a socket: NIO's server pipeline and ``APNsHTTP1Handler`` in an
/// `EmbeddedChannel`, bytes in and bytes out, over a real `Mock`. Pipelined requests answered in order, 431 for a
/// header list over the limit, keep-alive and `connection: close`, and the delay, stall and drop faults.
final class HTTP1HandlerEmbeddedTests: XCTestCase {
    private var mock: Mock!
    private var channel: EmbeddedChannel!
    private let token = String(repeating: "ab", count: 32)

    override func setUpWithError() throws {
        mock = try TestMock.anySignature()
        channel = EmbeddedChannel()
        try channel.pipeline.syncOperations.configureHTTPServerPipeline(withPipeliningAssistance: true, withErrorHandling: true)
        try channel.pipeline.syncOperations.addHandler(APNsHTTP1Handler(
            pipeline: mock.pipeline, connectionID: mock.newConnectionID(),
            limits: .init(maxBodyBytes: 4096, maxHeaderListSize: 8000)))
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 40000)).wait()
    }

    override func tearDown() {
        _ = try? channel.finish()
        mock.shutdown()
    }

    /// One push request's bytes; `extra` adds header lines.
    private func push(_ title: String, extra: [String] = []) -> String {
        let body = #"{"aps":{"alert":"\#(title)"}}"#
        let lines = ["POST /3/device/\(token) HTTP/1.1", "host: 127.0.0.1", "apns-topic: com.example.app",
                     "authorization: bearer \(TokenFixture.bearer())", "content-length: \(body.utf8.count)"] + extra
        return lines.joined(separator: "\r\n") + "\r\n\r\n" + body
    }

    private func send(_ text: String) throws {
        try channel.writeInbound(ByteBuffer(string: text))
    }

    /// Everything written so far, as text.
    private func written() throws -> String {
        var text = ""
        while let buffer = try channel.readOutbound(as: ByteBuffer.self) { text += String(buffer: buffer) }
        return text
    }

    /// The status codes of the responses in `text`, in order.
    private func statuses(_ text: String) -> [Int] {
        text.components(separatedBy: "HTTP/1.1 ").dropFirst().compactMap { Int($0.prefix(3)) }
    }

    func testPipelinedRequestsAreAnsweredInOrderAndRecorded() throws {
        try send(push("one") + push("two") + push("three"))
        XCTAssertEqual(statuses(try written()), [200, 200, 200])
        XCTAssertEqual(mock.recorder.records().map { $0.payload?.value(at: ["aps", "alert"])?.stringValue }, ["one", "two", "three"])
        XCTAssertEqual(Set(mock.recorder.records().map(\.connectionID)).count, 1, "one connection")
        XCTAssertTrue(channel.isActive, "keep-alive: the connection stays open")
    }

    func testAHeaderListOverTheLimitIs431AndRecordedAndTheConnectionGoesOn() throws {
        try send(push("big", extra: ["x-padding: " + String(repeating: "x", count: 9000)]) + push("after"))
        XCTAssertEqual(statuses(try written()), [431, 200])
        XCTAssertEqual(mock.recorder.records().map(\.response.status), [431, 200])
    }

    func testConnectionCloseIsAnsweredThenClosed() throws {
        try send(push("last", extra: ["connection: close"]))
        let text = try written()
        XCTAssertEqual(statuses(text), [200])
        XCTAssertTrue(text.lowercased().contains("connection: close"), text)
        XCTAssertFalse(channel.isActive)
    }

    func testADelayFaultAnswersOnlyOnceTheLoopsTimerFires() throws {
        mock.faults.add(FaultRule(count: 1, action: .delay(milliseconds: 500)))
        try send(push("late"))
        XCTAssertEqual(statuses(try written()), [], "nothing before the delay")
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(499))
        XCTAssertEqual(statuses(try written()), [])
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(1))
        XCTAssertEqual(statuses(try written()), [200])
    }

    func testAStallFaultNeverAnswers() throws {
        mock.faults.add(FaultRule(count: 1, action: .stall))
        try send(push("stalled"))
        channel.embeddedEventLoop.advanceTime(by: .seconds(3600))
        XCTAssertEqual(statuses(try written()), [], "a stalled request is never answered")
        XCTAssertTrue(channel.isActive)
        XCTAssertEqual(mock.recorder.records().map(\.faults), [["stall"]])
    }

    func testADropFaultClosesTheConnectionWithoutAnAnswer() throws {
        mock.faults.add(FaultRule(count: 1, action: .drop))
        try send(push("dropped"))
        XCTAssertEqual(statuses(try written()), [])
        XCTAssertFalse(channel.isActive, "HTTP/1.1 has no stream reset: the connection closes")
        XCTAssertEqual(mock.recorder.records().map(\.response.status), [0], "recorded as unanswered")
    }
}
