import APNsModel
import MockTestSupport
import XCTest
@testable import MockAPNs
@testable import MockAPNsRecording

/// The search grammar applied to records, and `Recorder.search` over the memory ring and the record file.
final class SearchQueryMatchTests: LeakCheckedTestCase {
    static func record(token: String = "aa11", topic: String = "com.example.shop", type: String = "alert", status: Int = 200,
                       reason: String? = nil, payload: String = #"{"aps":{"alert":{"title":"Order shipped","body":"Box 42"}}}"#,
                       faults: [String] = []) -> RecordedRequest {
        RecordedRequest(
            seq: 0, receivedAtMillis: 1_795_000_000_000, connectionID: 1, streamID: 1, remote: "127.0.0.1:1",
            method: "POST", path: "/3/device/\(token)", deviceToken: token,
            headers: [HeaderField(name: "apns-topic", value: topic), HeaderField(name: "apns-push-type", value: type)],
            body: Array(payload.utf8), payload: try? JSONValue.parse(Array(payload.utf8)), payloadBytes: payload.utf8.count,
            auth: .init(kind: "token", teamID: "T", keyID: "K", issuedAt: 1), response: .init(status: status, reason: reason, apnsID: nil),
            faults: faults, lint: [], durationMicros: 1)
    }

    func testEachFieldMatchesAndMisses() throws {
        let shipped = Self.record()
        let rejected = Self.record(token: "BB22", status: 410, reason: "Unregistered")
        let silent = Self.record(type: "background", payload: #"{"aps":{"content-available":1}}"#)
        let inApp = Self.record(payload: #"{"aps":{"alert":"Pay now"},"inAppSymbol":"creditcard"}"#, faults: ["slow"])
        let all = [shipped, rejected, silent, inApp]
        // query → which of `all` match, by index
        let cases: [(String, [Int])] = [
            ("", [0, 1, 2, 3]),
            ("topic:com.example.shop", [0, 1, 2, 3]),
            ("topic:COM.EXAMPLE.SHOP", [0, 1, 2, 3]),
            ("topic:com.example", []),
            ("token:bb", [1]),
            ("token:22", []),
            ("type:background", [2]),
            ("-type:background", [0, 1, 3]),
            ("status:200", [0, 2, 3]),
            ("-status:200", [1]),
            ("status:4xx", [1]),
            ("reason:unregistered", [1]),
            ("title:shipped", [0, 1]),
            ("title:pay", [3]),
            ("body:box", [0, 1]),
            ("has:inAppSymbol", [3]),
            ("has:content-available", [2]),
            ("has:fault", [3]),
            ("-has:alert", [2]),
            ("shipped -status:200", [1]),
            ("creditcard", []),
            ("aa11 type:alert", [0, 3]),
        ]
        for (text, expected) in cases {
            let query = try SearchQuery(parsing: text)
            XCTAssertEqual(all.indices.filter { query.matches(all[$0]) }, expected, text)
        }
    }

    /// `has:relay` and `has:disagreement` read the record's upstream verdict (`serve --relay`).
    func testRelayedAndDisagreeingRecordsAreFound() throws {
        var agreed = Self.record()
        agreed.relay = RelayVerdict(status: 200, apnsID: "x")
        var disagreed = Self.record()
        disagreed.relay = RelayVerdict(status: 410, reason: "Unregistered", timestamp: 1_700_000_000_000)
        var unanswered = Self.record()
        unanswered.relay = RelayVerdict(status: 503, reason: "ServiceUnavailable", error: "upstream unreachable")
        var skipped = Self.record(status: 400, reason: "BadDeviceToken")
        skipped.relay = .notRelayed("not relayed: the mock rejected it")
        let plain = Self.record()
        let all = [agreed, disagreed, unanswered, skipped, plain]
        let cases: [(String, [Int])] = [
            ("has:relay", [0, 1, 2]),
            ("has:disagreement", [1]),
            ("-has:disagreement has:relay", [0, 2]),
        ]
        for (text, expected) in cases {
            let query = try SearchQuery(parsing: text)
            XCTAssertEqual(all.indices.filter { query.matches(all[$0]) }, expected, text)
        }
    }

    func testSearchPagesThroughTheRingThenTheFile() throws {
        let path = try makeTestDirectory("search", file: "search.jsonl")
        let recorder = try Recorder(memoryLimit: 3, filePath: path)
        for index in 1...10 { recorder.append(Self.record(status: index % 2 == 0 ? 200 : 400, reason: index % 2 == 0 ? nil : "BadDeviceToken")) }
        let query = try SearchQuery(parsing: "status:200")

        let first = try recorder.search(query, limit: 2)
        XCTAssertEqual(first.records.map(\.seq), [10, 8], "newest first from memory (ring holds 8…10)")
        XCTAssertFalse(first.readFile)
        let second = try recorder.search(query, before: first.nextBefore, limit: 2)
        XCTAssertEqual(second.records.map(\.seq), [6, 4], "past the ring: from the file")
        XCTAssertTrue(second.readFile)
        let third = try recorder.search(query, before: second.nextBefore, limit: 2)
        XCTAssertEqual(third.records.map(\.seq), [2])
        XCTAssertNil(third.nextBefore)

        let mixed = try recorder.search(query, limit: 4)
        XCTAssertEqual(mixed.records.map(\.seq), [10, 8, 6, 4], "ring then file in one page")

        recorder.clear()
        XCTAssertEqual(try recorder.search(SearchQuery(), limit: 10).records.map(\.seq), [], "cleared records stay out of searches")
        recorder.append(Self.record())
        XCTAssertEqual(try recorder.search(SearchQuery(), limit: 10).records.map(\.seq), [11])
    }

    /// One line of a record file: `record(token:)` numbered `seq`.
    static func line(seq: UInt64, token: String) -> String {
        var numbered = record(token: token)
        numbered.seq = seq
        return String(decoding: numbered.jsonLine(), as: UTF8.self) + "\n"
    }

    func testFindRecordLooksInMemoryThenInTheFile() throws {
        let path = try makeTestDirectory("find", file: "find.jsonl")
        let recorder = try Recorder(memoryLimit: 3, filePath: path)
        for index in 1...10 { recorder.append(Self.record(token: String(format: "%04x", index))) }
        XCTAssertNil(recorder.record(seq: 4), "seq 4 is past the memory ring")
        let fromFile = try XCTUnwrap(try recorder.findRecord(seq: 4), "a record only in the file is found there")
        XCTAssertEqual(fromFile.seq, 4)
        XCTAssertEqual(fromFile.deviceToken, "0004")
        XCTAssertEqual(try recorder.findRecord(seq: 1)?.deviceToken, "0001")
        XCTAssertEqual(try recorder.findRecord(seq: 9)?.deviceToken, "0009", "from memory")
        XCTAssertNil(try recorder.findRecord(seq: 11), "never recorded")
        XCTAssertNil(try recorder.findRecord(seq: 0))
        recorder.clear()
        XCTAssertNil(try recorder.findRecord(seq: 4), "cleared records stay out, as in searches")

        // A file reused by a second run: numbering goes on after the first run's (the recording contract), so every
        // number names one record of the file, the first run's included.
        let reused = try makeTestDirectory("find-reused", file: "find-reused.jsonl")
        for run in ["1111", "2222"] {
            let recorder = try Recorder(memoryLimit: 1, filePath: reused)
            for _ in 1...3 { recorder.append(Self.record(token: run)) }
            if run == "2222" {
                XCTAssertEqual(try recorder.findRecord(seq: 2)?.deviceToken, "1111", "the first run's record, from the file")
                XCTAssertEqual(try recorder.findRecord(seq: 5)?.deviceToken, "2222", "this run's, from the file")
                XCTAssertEqual(try recorder.findRecord(seq: 6)?.deviceToken, "2222", "this run's, from memory")
            }
            recorder.shutdown()
        }

        // A file whose numbering starts again (written before numbers continued across runs, or two files
        // concatenated): the records after the last restart are the ones a number names.
        let legacy = try makeTestDirectory("find-legacy", file: "find-legacy.jsonl")
        let lines = (1...3).map { Self.line(seq: UInt64($0), token: "1111") } + (1...2).map { Self.line(seq: UInt64($0), token: "2222") }
        try Data(lines.joined().utf8).write(to: URL(fileURLWithPath: legacy))
        let afterLegacy = try Recorder(memoryLimit: 1, filePath: legacy)
        afterLegacy.append(Self.record(token: "3333"))
        afterLegacy.append(Self.record(token: "3333"))
        XCTAssertEqual(try afterLegacy.findRecord(seq: 2)?.deviceToken, "2222", "after the restart in numbering")
        XCTAssertEqual(try afterLegacy.findRecord(seq: 4)?.deviceToken, "3333", "numbering goes on after the highest seq")
        afterLegacy.shutdown()

        let memoryOnly = try Recorder(memoryLimit: 2)
        for _ in 1...5 { memoryOnly.append(Self.record()) }
        XCTAssertNil(try memoryOnly.findRecord(seq: 2), "without a file a record past the ring is gone")
        XCTAssertEqual(try memoryOnly.findRecord(seq: 5)?.seq, 5)
    }

    func testPagingThroughManyBlocksOfTheFileMatchesEveryRecordOnceInOrder() throws {
        let path = try makeTestDirectory("search-blocks", file: "search-blocks.jsonl")
        // A first run's records (token 0000, status 410): the second run numbers on after them, and its searches
        // reach them too, past its own records.
        let earlier = try Recorder(memoryLimit: 5, filePath: path)
        for _ in 1...300 { earlier.append(Self.record(token: "0000", status: 410, reason: "Unregistered")) }
        earlier.shutdown()
        let recorder = try Recorder(memoryLimit: 10, filePath: path)
        let count = 3 * RecordFileIndex.stride + 17
        for index in 1...count { recorder.append(Self.record(token: "1111", status: index % 3 == 0 ? 200 : 410, reason: index % 3 == 0 ? nil : "Unregistered")) }
        let thisRun = (301...UInt64(300 + count))
        let query = try SearchQuery(parsing: "status:200")
        var seen: [UInt64] = []
        var before: UInt64?
        var pages = 0
        repeat {
            let page = try recorder.search(query, before: before, limit: 7)
            XCTAssertTrue(page.records.allSatisfy { $0.deviceToken == "1111" }, "only this run's records answer 200")
            seen += page.records.map(\.seq)
            before = page.nextBefore
            pages += 1
        } while before != nil && pages < 1000
        XCTAssertEqual(seen, Array(thisRun.filter { ($0 - 300) % 3 == 0 }.reversed()), "every match once, newest first")
        let all = try recorder.search(SearchQuery(), limit: 2000)
        XCTAssertEqual(all.records.map(\.seq), Array((1...UInt64(300 + count)).reversed()), "both runs, one number each")
        XCTAssertNil(all.nextBefore)
        for seq: UInt64 in [1, 255, 256, 257, 300] {
            XCTAssertEqual(try recorder.findRecord(seq: seq)?.deviceToken, "0000", "seq \(seq): the first run's")
        }
        for seq: UInt64 in [301, 555, 556, 557, 813, UInt64(300 + count - 10)] {
            XCTAssertEqual(try recorder.findRecord(seq: seq)?.seq, seq)
            XCTAssertEqual(try recorder.findRecord(seq: seq)?.deviceToken, "1111", "seq \(seq): this run's")
        }
        recorder.append(Self.record(token: "2222"))   // the index grows with the file
        recorder.append(Self.record(token: "2222"))
        XCTAssertEqual(try recorder.search(try SearchQuery(parsing: "token:2222"), limit: 5).records.count, 2)
    }

    func testSearchWithoutAFileStaysInMemory() throws {
        let recorder = try Recorder(memoryLimit: 2)
        for _ in 1...5 { recorder.append(Self.record()) }
        let page = try recorder.search(SearchQuery(), limit: 10)
        XCTAssertEqual(page.records.map(\.seq), [5, 4])
        XCTAssertNil(page.nextBefore)
        XCTAssertFalse(page.readFile)
    }
}
