import MockAPNs
import MockAPNsControl
import XCTest
import TestSupport

/// `GET /metrics`: Prometheus text fed from the recorder.
final class MetricsTests: LeakCheckedTestCase {
    func testCountsByStatusReasonPushTypeAndLatency() async throws {
        let harness = try await ControlTestHarness.start()
        addTeardownBlock { await harness.stop() }
        let recorder = harness.mock.recorder
        recorder.append(RecordFixtures.make(pushType: "alert", durationMicros: 300))
        recorder.append(RecordFixtures.make(pushType: "background", status: 400, reason: "BadDeviceToken", durationMicros: 2_000))

        var text = ""
        for _ in 0..<100 {   // the metrics feed follows the recorder asynchronously
            text = try await harness.client.send("GET", "/metrics").text
            if text.contains("mockapns_requests_total 2") { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        let answer = try await harness.client.send("GET", "/metrics")
        await harness.stop()
        XCTAssertTrue(answer.headers["content-type"]?.hasPrefix("text/plain; version=0.0.4") == true)
        XCTAssertTrue(text.contains("mockapns_requests_total 2"), text)
        XCTAssertTrue(text.contains(#"mockapns_requests_by_status_total{status="400"} 1"#), text)
        XCTAssertTrue(text.contains(#"mockapns_requests_by_reason_total{reason="BadDeviceToken"} 1"#), text)
        XCTAssertTrue(text.contains(#"mockapns_requests_by_push_type_total{push_type="background"} 1"#), text)
        XCTAssertTrue(text.contains(#"mockapns_request_duration_seconds_bucket{le="0.0005"} 1"#), text)
        XCTAssertTrue(text.contains(#"mockapns_request_duration_seconds_bucket{le="0.0025"} 2"#), text)
        XCTAssertTrue(text.contains("mockapns_request_duration_seconds_count 2"), text)
        XCTAssertTrue(text.contains("mockapns_open_connections 0"), text)
    }

    func testCountersOnlyGrowAcrossAClearAndTheHistogramSumIsExact() async throws {
        let harness = try await ControlTestHarness.start()
        addTeardownBlock { await harness.stop() }
        let recorder = harness.mock.recorder
        recorder.append(RecordFixtures.make(pushType: "alert", durationMicros: 300))
        recorder.append(RecordFixtures.make(pushType: "alert", durationMicros: 400))
        let first = try await harness.client.send("GET", "/metrics").text
        recorder.clear()
        recorder.append(RecordFixtures.make(pushType: "voip", status: 400, reason: "BadTopic", durationMicros: 7_000_000))
        let second = try await harness.client.send("GET", "/metrics").text
        let stats = recorder.statistics
        await harness.stop()
        XCTAssertTrue(first.contains("mockapns_requests_total 2"), first)
        XCTAssertTrue(first.contains(#"mockapns_request_duration_seconds_bucket{le="0.0005"} 2"#), first)
        XCTAssertTrue(second.contains("mockapns_requests_total 3"), "clear() must not reset a counter: \(second)")
        XCTAssertTrue(second.contains(#"mockapns_requests_by_push_type_total{push_type="alert"} 2"#), second)
        XCTAssertTrue(second.contains(#"mockapns_requests_by_reason_total{reason="BadTopic"} 1"#), second)
        XCTAssertTrue(second.contains(#"mockapns_request_duration_seconds_bucket{le="5.0"} 2"#), second)
        XCTAssertTrue(second.contains(#"mockapns_request_duration_seconds_bucket{le="+Inf"} 3"#), second)
        let sum = second.split(separator: "\n").first { $0.hasPrefix("mockapns_request_duration_seconds_sum ") }
        XCTAssertEqual(sum.flatMap { Double($0.split(separator: " ")[1]) } ?? 0, 7.0007, accuracy: 1e-9, second)
        XCTAssertEqual(stats.total, 1, "the stats API does reset on clear()")
        XCTAssertEqual(stats.byPushType, ["voip": 1])
        XCTAssertEqual(stats.byStatus, [400: 1])
    }

    func testTheStoreSeriesCountBatchesAndShowItsHealth() async throws {
        // The store is the embedded memory store of a second recorder: a real `RecordStore`, no database needed.
        let sink = try Recorder(memoryLimit: 10)
        var configuration = MockConfiguration()
        configuration.trustBundledKeys = false
        configuration.trustAnySignature = true
        configuration.recordStore = MemoryRecordStore(recorder: sink)
        let mock = try Mock(configuration: configuration)
        addTeardownBlock { mock.shutdown() }
        let control = ControlServer(mock: mock, configuration: ControlConfiguration(port: 0))
        addTeardownBlock { await control.stop() }
        let port = try await control.start()
        mock.recorder.append(RecordFixtures.make())
        mock.recorder.append(RecordFixtures.make())
        mock.recorder.flush()
        let text = try await HTTPTestClient(base: "http://127.0.0.1:\(port)").send("GET", "/metrics").text
        await control.stop()
        mock.shutdown()
        XCTAssertEqual(sink.lastSequence, 2, "both records reached the store")
        XCTAssertTrue(text.contains("mockapns_store_unwritable 0"), text)
        XCTAssertTrue(text.contains("mockapns_store_queued_records 0"), text)
        XCTAssertTrue(text.contains("mockapns_store_held_records 0"), text)
        XCTAssertTrue(text.contains("mockapns_store_failures_total 0"), text)
        let batches = text.split(separator: "\n").first { $0.hasPrefix("mockapns_store_batches_total ") }
        let count = batches.flatMap { Int($0.split(separator: " ")[1]) } ?? 0
        XCTAssertTrue((1...2).contains(count), "one or two batches for two records: \(text)")
        XCTAssertTrue(text.contains("mockapns_store_records_total 2"), text)
        XCTAssertTrue(text.contains("mockapns_store_commit_duration_seconds_count \(count)"), "one commit time per batch: \(text)")
        XCTAssertTrue(text.contains("mockapns_store_batch_size_records_count \(count)"), text)
        let small = text.split(separator: "\n").first { $0.hasPrefix(#"mockapns_store_batch_size_records_bucket{le="10.0"}"#) }
        XCTAssertEqual(small.flatMap { Int($0.split(separator: " ")[1]) }, count, "batches of one or two records: \(text)")
        XCTAssertTrue(text.contains("mockapns_store_pruned_records_total 0"), text)
        mock.recorder.countStorePruned(5)
        XCTAssertEqual(mock.recorder.storeProgress?.pruned, 5)
    }

    func testAMockWithoutAStoreShowsNoStoreSeries() async throws {
        let harness = try await ControlTestHarness.start()
        addTeardownBlock { await harness.stop() }
        let text = try await harness.client.send("GET", "/metrics").text
        await harness.stop()
        XCTAssertFalse(text.contains("mockapns_store_"), text)
    }

    func testRecordsFromBeforeTheControlPlaneStartedAreCounted() async throws {
        let mock = try TestMock.anySignature()
        addTeardownBlock { mock.shutdown() }
        mock.recorder.append(RecordFixtures.make())
        let control = ControlServer(mock: mock, configuration: ControlConfiguration(port: 0))
        addTeardownBlock { await control.stop() }
        let port = try await control.start()
        let text = try await HTTPTestClient(base: "http://127.0.0.1:\(port)").send("GET", "/metrics").text
        await control.stop()
        mock.shutdown()
        XCTAssertTrue(text.contains("mockapns_requests_total 1"), text)
    }

    func testRestartingTheControlPlaneDoesNotCountRecordsTwice() async throws {
        let mock = try TestMock.anySignature()
        addTeardownBlock { mock.shutdown() }
        mock.recorder.append(RecordFixtures.make())
        let control = ControlServer(mock: mock, configuration: ControlConfiguration(port: 0))
        addTeardownBlock { await control.stop() }
        _ = try await control.start()
        do {
            _ = try await control.start()
            XCTFail("started twice")
        } catch {}
        await control.stop()
        mock.recorder.append(RecordFixtures.make())
        let port = try await control.start()
        let text = try await HTTPTestClient(base: "http://127.0.0.1:\(port)").send("GET", "/metrics").text
        await control.stop()
        mock.shutdown()
        XCTAssertTrue(text.contains("mockapns_requests_total 2"), text)
    }
}
