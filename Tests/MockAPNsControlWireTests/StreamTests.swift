import APNsModel
import MockAPNs
import MockAPNsControl
import TestSupport
import XCTest

/// `GET /api/v1/stream`: server-sent events, live.
final class StreamTests: LeakCheckedTestCase {
    func testEachNewRecordArrivesAsADataEvent() async throws {
        let harness = try await ControlTestHarness.start()
        addTeardownBlock { await harness.stop() }
        let curl = try CurlStream(url: "http://127.0.0.1:\(harness.port)/api/v1/stream?push_type=alert")
        defer { curl.terminate() }
        _ = try await curl.waitForLine { $0.hasPrefix(": mockapns live stream") }

        harness.mock.recorder.append(RecordFixtures.make(pushType: "background"))
        harness.mock.recorder.append(RecordFixtures.make(pushType: "alert", title: "Live"))
        let lines = try await curl.waitForLine { $0.hasPrefix("data: ") }
        let data = try XCTUnwrap(lines.first { $0.hasPrefix("data: ") })
        let record = try JSONValue.parse(Array(data.dropFirst(6).utf8))
        XCTAssertEqual(record["seq"]?.integerValue, 2, "the background push is filtered out")
        XCTAssertEqual(record.value(at: ["payload", "aps", "alert", "title"])?.stringValue, "Live")
    }

    func testSinceReplaysEarlierRecordsFirst() async throws {
        let harness = try await ControlTestHarness.start()
        addTeardownBlock { await harness.stop() }
        harness.mock.recorder.append(RecordFixtures.make(title: "one"))
        harness.mock.recorder.append(RecordFixtures.make(title: "two"))
        let curl = try CurlStream(url: "http://127.0.0.1:\(harness.port)/api/v1/stream?since=1")
        defer { curl.terminate() }
        let lines = try await curl.waitForLine { $0.hasPrefix("data: ") }
        XCTAssertEqual(lines.filter { $0.hasPrefix("data: ") }.count, 1)
        XCTAssertTrue(lines.contains { $0.contains("\"two\"") })
    }

    func testStoppingTheServerEndsOpenStreams() async throws {
        let harness = try await ControlTestHarness.start()
        addTeardownBlock { await harness.stop() }
        let curl = try CurlStream(url: "http://127.0.0.1:\(harness.port)/api/v1/stream")
        defer { curl.terminate() }
        _ = try await curl.waitForLine { $0.hasPrefix(":") }
        await harness.stop()
        let exited = try await curl.waitForExit()
        XCTAssertTrue(exited, "the stream stayed open after stop()")
    }

    func testIdleStreamsGetKeepAliveComments() async throws {
        let mock = try TestMock.anySignature()
        addTeardownBlock { mock.shutdown() }
        let control = ControlServer(mock: mock, configuration: ControlConfiguration(port: 0, streamHeartbeat: .milliseconds(100)))
        addTeardownBlock { await control.stop() }
        let port = try await control.start()
        let curl = try CurlStream(url: "http://127.0.0.1:\(port)/api/v1/stream")
        defer { curl.terminate() }
        let lines = try await curl.waitForLine { $0 == ": keep-alive" }
        XCTAssertTrue(lines.contains(": keep-alive"))
    }
}
