import APNsModel
import DeviceSimulation
import Foundation
import Support
import MockTestSupport
import XCTest
@testable import MockAPNs
@testable import MockAPNsRecording

final class RecorderTests: LeakCheckedTestCase {
    static func sample(status: Int = 200, reason: String? = nil, token: String = "aabb", topic: String = "com.example.app",
                       payload: JSONValue? = .object([.init("aps", .object([.init("badge", .integer(1))]))])) -> RecordedRequest {
        .sample(
            receivedAtMillis: 1_795_000_000_123, connectionID: 7, streamID: 3, remote: "127.0.0.1:5000", token: token,
            topic: topic, extraHeaders: [HeaderField(name: "x-dup", value: "1"), HeaderField(name: "x-dup", value: "2")],
            payload: payload, body: payload.map { Array($0.jsonText().utf8) } ?? [0xff, 0x00],
            auth: .init(kind: "token", teamID: "TESTTEAM01", keyID: "TESTKEY001", issuedAt: 1_795_000_000),
            status: status, reason: reason, apnsID: "0a0b0c0d-0000-1111-2222-333344445555",
            apnsUniqueID: status == 200 ? "11111111-2222-3333-4444-555555555555" : nil,
            timestamp: status == 410 ? 1_795_000_000_000 : nil, faults: status == 503 ? ["apns down"] : [],
            lint: [LintFinding(id: "x", severity: .info, message: "m", path: "aps")], durationMicros: 42)
    }

    func testNumbersRecordsAndFiltersThem() throws {
        let recorder = try Recorder(memoryLimit: 10)
        recorder.append(Self.sample())
        recorder.append(Self.sample(status: 410, reason: "Unregistered", token: "ccdd"))
        recorder.append(Self.sample(status: 400, reason: "BadTopic", topic: "com.other"))
        XCTAssertEqual(recorder.records().map(\.seq), [1, 2, 3])
        XCTAssertEqual(recorder.records(matching: RecordFilter(status: 410)).map(\.seq), [2])
        XCTAssertEqual(recorder.records(matching: RecordFilter(token: "CCDD")).map(\.seq), [2])
        XCTAssertEqual(recorder.records(matching: RecordFilter(topic: "com.other")).map(\.seq), [3])
        XCTAssertEqual(recorder.records(matching: RecordFilter(since: 1, limit: 1)).map(\.seq), [3])
        XCTAssertEqual(recorder.record(seq: 2)?.response.reason, "Unregistered")
        XCTAssertNil(recorder.record(seq: 4))
        let stats = recorder.statistics
        XCTAssertEqual(stats.total, 3)
        XCTAssertEqual(stats.accepted, 1)
        XCTAssertEqual(stats.byReason["BadTopic"], 1)
    }

    func testMemoryRingKeepsTheNewest() throws {
        let recorder = try Recorder(memoryLimit: 3)
        for _ in 0..<5 { recorder.append(Self.sample()) }
        XCTAssertEqual(recorder.records().map(\.seq), [3, 4, 5])
        XCTAssertNil(recorder.record(seq: 2))
        XCTAssertEqual(recorder.record(seq: 3)?.seq, 3)
        XCTAssertEqual(recorder.statistics.total, 5)
    }

    func testJSONLineRoundTrips() throws {
        var record = Self.sample(status: 410, reason: "Unregistered")
        record.seq = 9
        let line = record.jsonLine()
        XCTAssertEqual(line.last, UInt8(ascii: "\n"))
        XCTAssertEqual(line.filter { $0 == UInt8(ascii: "\n") }.count, 1)
        let back = try RecordedRequest(jsonLine: line.dropLast())
        XCTAssertEqual(back, record)
    }

    func testJSONLineMatchesTheTreeFormAndStaysOnOneLine() throws {
        var record = Self.sample()
        record.seq = 3
        record.body = Array("{\n  \"aps\" : {\r\n \"badge\": 1 }\n}".utf8)
        record.headers.append(HeaderField(name: "x-quote", value: "a\"b\\c\n\u{01}é"))
        let line = record.jsonLine()
        XCTAssertEqual(line.filter { $0 == 0x0A }.count, 1, "only the terminating newline")
        let parsed = try JSONValue.parse(line.dropLast())
        XCTAssertEqual(parsed, try JSONValue.parse(Array(record.jsonValue().jsonText().utf8)))
    }

    func testGeneratedIDsAreCanonicalAndDistinct() {
        let ids = (0..<10_000).map { _ in APNsIDGenerator.next() }
        XCTAssertEqual(Set(ids).count, ids.count)
        let pattern = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/
        for id in ids.prefix(100) { XCTAssertNotNil(id.wholeMatch(of: pattern), id) }
        // The text spells exactly the ID's 128 bits.
        for _ in 0..<1000 {
            let id = APNsIDGenerator.nextID()
            func hex(_ value: UInt64) -> String {
                let digits = String(value, radix: 16)
                return String(repeating: "0", count: 16 - digits.count) + digits
            }
            let all = Array(hex(id.high) + hex(id.low))
            let expected = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(all[$0]) }.joined(separator: "-")
            XCTAssertEqual(id.text, expected)
        }
    }

    func testUnparseableBodyIsKeptAsBase64() throws {
        var record = Self.sample(payload: nil)
        record.seq = 1
        let text = String(decoding: record.jsonLine(), as: UTF8.self)
        XCTAssertTrue(text.contains("\"payload_base64\":\"/wA=\""), text)
        XCTAssertEqual(try RecordedRequest(jsonLine: Array(text.utf8).dropLast()).body, [0xff, 0x00])
    }

    func testFileGetsEveryRecordAndFlushes() throws {
        let path = try makeTestDirectory("recorder", file: "recorder.jsonl")
        let recorder = try Recorder(memoryLimit: 5, filePath: path)
        addTeardownBlock { recorder.shutdown() }
        let threads = 4, perThread = 2_500
        DispatchQueue.concurrentPerform(iterations: threads) { _ in
            for _ in 0..<perThread { recorder.append(Self.sample()) }
        }
        recorder.flush()
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(lines.count, threads * perThread)
        XCTAssertEqual(Set(try lines.map { try RecordedRequest(jsonLine: Array($0.utf8)).seq }).count, threads * perThread)
    }

    /// A disk slower than the traffic shuts the recorder's intake gate once the file's queue is full, instead of
    /// the queue growing without bound or the appending thread waiting (it may be an event loop the writer needs):
    /// appends return at once, the gate opens as soon as the writer takes the queue, and every record reaches the
    /// file, in order.
    func testSlowFileShutsTheIntakeGateAtItsQueueLimitAndLosesNothing() throws {
        let path = try makeTestDirectory("slow", file: "slow.jsonl")
        let disk = DispatchSemaphore(value: 0)
        let atDisk = DispatchSemaphore(value: 0)
        let limit = 100
        let recorder = try Recorder(memoryLimit: 10, filePath: path, fileQueueLimit: limit, beforeFileBatch: {
            atDisk.signal()
            disk.wait()
        })
        addTeardownBlock { recorder.shutdown() }
        recorder.append(Self.sample())
        XCTAssertEqual(atDisk.wait(timeout: .now() + 10), .success, "the writer takes the first record to the disk")
        for _ in 0..<(limit - 1) { recorder.append(Self.sample()) }
        XCTAssertFalse(recorder.intake.isShut, "below the limit the gate stays open")
        recorder.append(Self.sample())
        XCTAssertTrue(recorder.intake.isShut, "at the limit the gate shuts")
        recorder.append(Self.sample())   // what is already read when it shuts is still taken, at once
        let opened = DispatchSemaphore(value: 0)
        recorder.intake.whenOpen { opened.signal() }
        XCTAssertEqual(opened.wait(timeout: .now() + 0.2), .timedOut, "the gate stays shut while the disk holds the writer")
        disk.signal()   // the first batch is written; the writer takes the queue
        XCTAssertEqual(opened.wait(timeout: .now() + 30), .success, "the gate opens once the writer takes the queue")
        XCTAssertFalse(recorder.intake.isShut)
        XCTAssertEqual(recorder.intake.timesShut, 1)
        for _ in 0..<10 { disk.signal() }   // the disk catches up
        recorder.flush()
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(try lines.map { try RecordedRequest(jsonLine: Array($0.utf8)).seq }, (1...UInt64(limit + 2)).map { $0 })
    }

    /// `flushed()` suspends rather than blocking: many flushes wait at once on a two-thread pool without starving
    /// the writer.
    func testAsyncFlushesWaitWithoutHoldingThreads() async throws {
        let path = try makeTestDirectory("flushed", file: "flushed.jsonl")
        let recorder = try Recorder(memoryLimit: 10, filePath: path)
        for _ in 0..<1_000 { recorder.append(Self.sample()) }
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<64 { group.addTask { await recorder.flushed() } }
        }
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(lines.count, 1_000)
        await recorder.close()
        await recorder.flushed()   // after close: returns at once
    }

    func testFileRecordsCarryLintFindings() throws {
        let path = try makeTestDirectory("lint", file: "lint.jsonl")
        let recorder = try Recorder(memoryLimit: 5, filePath: path)
        addTeardownBlock { recorder.shutdown() }
        var record = Self.sample(payload: .object([.init("aps", .object([.init("content-available", .integer(1)),
                                                                           .init("alert", .string("hi"))]))]))
        record.headers = [HeaderField(name: "apns-push-type", value: "background"), HeaderField(name: "apns-priority", value: "5")]
        record.lint = []
        recorder.append(record)
        recorder.flush()
        let line = try String(contentsOfFile: path, encoding: .utf8)
        let stored = try RecordedRequest(jsonLine: Array(line.utf8.dropLast()))
        XCTAssertFalse(stored.lint.isEmpty, "a background push with an alert has lint findings: \(line)")
        XCTAssertEqual(stored.lint, recorder.records().first?.lint)
    }

    func testLintDependsOnHeadersAsWellAsThePayload() {
        var background = Self.sample(payload: .object([.init("aps", .object([.init("content-available", .integer(1)),
                                                                               .init("alert", .string("hi"))]))]))
        background.lint = []
        background.headers = [HeaderField(name: "apns-push-type", value: "background")]
        var alert = background
        alert.headers = [HeaderField(name: "apns-push-type", value: "alert"), HeaderField(name: "apns-priority", value: "10")]
        let first = background.withLint().lint, again = background.withLint().lint, other = alert.withLint().lint
        XCTAssertFalse(first.isEmpty)
        XCTAssertEqual(first, again, "a repeated payload gets the same findings")
        XCTAssertNotEqual(first, other, "the same body with other headers is linted on its own")
    }

    func testWaitersWakeOnMatchAndTimeOutWithACount() async throws {
        let recorder = try Recorder(memoryLimit: 100)
        async let waited = recorder.waitForRecords(count: 2, matching: RecordFilter(status: 410), timeout: .seconds(10))
        recorder.append(Self.sample())
        recorder.append(Self.sample(status: 410, reason: "Unregistered"))
        recorder.append(Self.sample(status: 410, reason: "Unregistered"))
        let records = try await waited
        XCTAssertEqual(records.map(\.seq), [2, 3])

        do {
            _ = try await recorder.waitForRecords(count: 5, matching: RecordFilter(status: 410), timeout: .milliseconds(50))
            XCTFail("expected a timeout")
        } catch let error as RecorderError {
            XCTAssertEqual(error, .timedOut(expected: 5, arrived: 2, timeout: .milliseconds(50)))
        }
    }

    /// A waiter counts only what is still in memory: matches pushed out of the ring, or forgotten by `clear`,
    /// no longer count towards it.
    func testWaitersCountOnlyRecordsStillInMemory() async throws {
        let recorder = try Recorder(memoryLimit: 3)
        let gone = Self.sample(status: 410, reason: "Unregistered"), other = Self.sample()
        let waiting = Task { try await recorder.waitForRecords(count: 3, matching: RecordFilter(status: 410), timeout: .seconds(20)) }
        let registered = try await Poll.until(every: .milliseconds(5)) { recorder.waiterCount > 0 }
        XCTAssertTrue(registered, "the waiter never registered")
        // `append` settles waiters under the recorder's lock, so the count is exact as soon as it returns.
        for record in [gone, gone, other, other, gone] { recorder.append(record) }   // ring: 200, 200, 410
        XCTAssertEqual(recorder.waiterCount, 1, "two of the three matches were pushed out of the ring")
        recorder.clear()
        recorder.append(gone)
        recorder.append(gone)
        XCTAssertEqual(recorder.waiterCount, 1, "the match before clear() is forgotten")
        recorder.append(gone)
        let records = try await waiting.value
        XCTAssertEqual(records.map(\.seq), [6, 7, 8])
        XCTAssertEqual(recorder.waiterCount, 0)
    }

    func testSubscribersSeeNewRecords() async throws {
        let recorder = try Recorder(memoryLimit: 100)
        let stream = recorder.subscribe()
        recorder.append(Self.sample())
        recorder.append(Self.sample(status: 400, reason: "BadTopic"))
        var seen: [UInt64] = []
        for await record in stream {
            seen.append(record.seq)
            if seen.count == 2 { break }
        }
        XCTAssertEqual(seen, [1, 2])
    }

    func testSubscribersGetLintOnTheirOwnTaskOrNotAtAll() async throws {
        let recorder = try Recorder(memoryLimit: 100)
        let linted = recorder.subscribe(), plain = recorder.subscribe(lint: false)
        var record = Self.sample(payload: .object([.init("aps", .object([.init("content-available", .integer(1)),
                                                                           .init("alert", .string("hi"))]))]))
        record.headers = [HeaderField(name: "apns-push-type", value: "background"), HeaderField(name: "apns-priority", value: "5")]
        record.lint = []
        recorder.append(record)
        var withLint: RecordedRequest?, withoutLint: RecordedRequest?
        for await record in linted { withLint = record; break }
        for await record in plain { withoutLint = record; break }
        XCTAssertEqual(withLint?.seq, 1)
        XCTAssertFalse(withLint?.lint.isEmpty ?? true, "a background push with an alert has lint findings")
        XCTAssertEqual(withoutLint?.seq, 1)
        XCTAssertEqual(withoutLint?.lint, [], "lint: false hands the record over as stored")
    }

    func testRecordsAfterASequenceNumberComeOldestFirstFromWhatIsStillInMemory() throws {
        let recorder = try Recorder(memoryLimit: 4)
        XCTAssertEqual(recorder.records(after: 0, limit: 10).map(\.seq), [])
        for _ in 1...3 { recorder.append(Self.sample()) }
        XCTAssertEqual(recorder.records(after: 0, limit: 10).map(\.seq), [1, 2, 3])
        XCTAssertEqual(recorder.records(after: 1, limit: 1).map(\.seq), [2])
        XCTAssertEqual(recorder.records(after: 3, limit: 10).map(\.seq), [])
        XCTAssertEqual(recorder.records(after: 2, limit: 0).map(\.seq), [])
        for _ in 4...9 { recorder.append(Self.sample()) }   // the ring wraps: 6...9 are left
        XCTAssertEqual(recorder.records(after: 2, limit: 10).map(\.seq), [6, 7, 8, 9], "records pushed out are skipped")
        XCTAssertEqual(recorder.records(after: 6, limit: 2).map(\.seq), [7, 8])
        XCTAssertEqual(recorder.records(after: 100, limit: 2).map(\.seq), [])
    }

    func testISO8601RoundTrips() {
        XCTAssertEqual(Timestamp.iso8601(millis: 0), "1970-01-01T00:00:00.000Z")
        XCTAssertEqual(Timestamp.iso8601(millis: 1_795_000_000_123), "2026-11-18T11:06:40.123Z")
        XCTAssertEqual(Timestamp.parseISO8601("2026-11-18T11:06:40.123Z"), 1_795_000_000_123)
        XCTAssertNil(Timestamp.parseISO8601("yesterday"))
    }
}
