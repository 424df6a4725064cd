import APNsModel
import Foundation
import Support
import MockTestSupport
import XCTest
@testable import MockAPNs
@testable import MockAPNsRecording

/// Followers read the recorder by position: every record once and in order when they keep up, an exact skipped
/// range when they fall behind a recorder without a file, and the file's records (no gap) when there is one.
final class RecordFollowerTests: LeakCheckedTestCase {
    private func store(_ count: Int, in recorder: Recorder) {
        for _ in 0..<count { recorder.append(RecorderTests.sample()) }
    }

    /// Reads until `position` reaches `last`; returns the batches.
    private func readAll(_ follower: inout RecordFollower, through last: UInt64) async -> [FollowBatch] {
        var batches: [FollowBatch] = []
        while follower.position < last, let batch = await follower.next(timeout: .seconds(5)) {
            batches.append(batch)
        }
        return batches
    }

    func testAFollowerThatKeepsUpSeesEveryRecordOnceInOrder() async throws {
        let recorder = try Recorder(memoryLimit: 1_000)
        var follower = RecordFollower(recorder: recorder, after: 0, batchLimit: 64)
        store(300, in: recorder)
        let batches = await readAll(&follower, through: 300)
        XCTAssertEqual(batches.flatMap(\.records).map(\.seq), Array(1...300))
        XCTAssertTrue(batches.allSatisfy { $0.skipped == nil })
        XCTAssertTrue(batches.allSatisfy { $0.records.count <= 64 }, "batches are bounded")
    }

    /// No file: a follower that fell 400 records behind a ring of 100 is told exactly which it missed, then gets
    /// the rest whole and in order.
    func testAFollowerThatFellBehindGetsTheExactSkippedRange() async throws {
        let recorder = try Recorder(memoryLimit: 100)
        var follower = RecordFollower(recorder: recorder, after: 0)
        store(50, in: recorder)
        let first = await follower.next(timeout: .seconds(5))
        XCTAssertEqual(first?.records.map(\.seq), Array(1...50))
        store(450, in: recorder)   // memory now holds 401...500
        let second = await follower.next(timeout: .seconds(5))
        XCTAssertEqual(second?.skipped, 51...400)
        XCTAssertEqual(second?.records.map(\.seq), Array(401...500), "what follows the gap is whole and in order")
        store(5, in: recorder)
        let third = await follower.next(timeout: .seconds(5))
        XCTAssertNil(third?.skipped)
        XCTAssertEqual(third?.records.map(\.seq), Array(501...505))
    }

    /// With a record file, the records the ring no longer holds are read back from it: no gap at all, and their
    /// lines are the file's own.
    func testAFollowerBehindTheRingCatchesUpFromTheFile() async throws {
        let path = try makeTestDirectory("follow", file: "follow.jsonl")
        let recorder = try Recorder(memoryLimit: 100, filePath: path)
        defer { recorder.shutdown() }
        var follower = RecordFollower(recorder: recorder, after: 0, batchLimit: 128)
        store(1_000, in: recorder)
        let batches = await readAll(&follower, through: 1_000)
        XCTAssertTrue(batches.allSatisfy { $0.skipped == nil }, "nothing skipped: \(batches.compactMap(\.skipped))")
        XCTAssertEqual(batches.flatMap(\.records).map(\.seq), Array(1...1_000))
        var encoder = RecordLineEncoder()
        let fileLines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        let firstLine = batches.first.flatMap(\.records.first).map { encoder.line(for: $0) }
        XCTAssertEqual(firstLine.map { String(decoding: $0, as: UTF8.self) }, String(fileLines[0]) + "\n")
    }

    /// With a record file, followers share the lines the file writer encodes: once a follower has read, the writer
    /// offers each line to its record, a follower at the head reads only what the writer has encoded, and the line it
    /// gets is the file's own.
    func testFollowersTakeTheFileWritersLines() async throws {
        let path = try makeTestDirectory("follow", file: "follow.jsonl")
        let recorder = try Recorder(memoryLimit: 1_000, filePath: path)
        defer { recorder.shutdown() }
        var follower = RecordFollower(recorder: recorder, after: 0)
        store(1, in: recorder)
        _ = await readAll(&follower, through: 1)   // a follower has read: lines are shared from now on
        store(200, in: recorder)
        recorder.flush()
        XCTAssertTrue((2...201).allSatisfy { recorder.numberedRecord(seq: UInt64($0))?.keepsLine == true },
                      "the writer offered every line it encoded")
        XCTAssertEqual(recorder.linesReadyThrough, 201)
        let batches = await readAll(&follower, through: 201)
        XCTAssertEqual(batches.flatMap(\.records).map(\.seq), Array(2...201))
        var encoder = RecordLineEncoder()
        let fileLines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        for record in batches.flatMap(\.records) {
            XCTAssertEqual(String(decoding: encoder.line(for: record), as: UTF8.self), String(fileLines[Int(record.seq) - 1]) + "\n")
        }
    }

    /// Ten followers at once each see every record; the line of a record is the same bytes for all of them.
    func testTenFollowersEachSeeEveryRecord() async throws {
        let recorder = try Recorder(memoryLimit: 100_000)
        let total: UInt64 = 5_000
        let results = await withTaskGroup(of: [UInt64].self) { group in
            for _ in 0..<10 {
                group.addTask {
                    var follower = RecordFollower(recorder: recorder, after: 0)
                    var seen: [UInt64] = []
                    while follower.position < total, let batch = await follower.next(timeout: .seconds(10)) {
                        seen += batch.records.map(\.seq)
                    }
                    return seen
                }
            }
            DispatchQueue.global().async {
                for index in 0..<Int(total) {
                    recorder.append(RecorderTests.sample())
                    if index % 1_000 == 0 { usleep(2_000) }
                }
            }
            var all: [[UInt64]] = []
            for await seen in group { all.append(seen) }
            return all
        }
        XCTAssertEqual(results.count, 10)
        for seen in results { XCTAssertEqual(seen, Array(1...total)) }
    }

    func testSharedLineIsEncodedOnceAndIsTheFileFormat() async throws {
        let recorder = try Recorder(memoryLimit: 10)
        store(1, in: recorder)
        var a = RecordFollower(recorder: recorder, after: 0)
        var b = RecordFollower(recorder: recorder, after: 0)
        let recordA = await a.next(timeout: .seconds(1))?.records.first
        let recordB = await b.next(timeout: .seconds(1))?.records.first
        var encoderA = RecordLineEncoder(), encoderB = RecordLineEncoder()
        guard let recordA, let recordB else { return XCTFail("no record") }
        let lineA = encoderA.line(for: recordA), lineB = encoderB.line(for: recordB)
        XCTAssertEqual(lineA, lineB)
        XCTAssertEqual(lineA.last, UInt8(ascii: "\n"))
        let parsed = try? RecordedRequest(jsonLine: Array(lineA.dropLast()))
        XCTAssertEqual(parsed?.seq, 1)
        XCTAssertEqual(parsed?.lint, recordA.record.withLint().lint, "the line carries the lint findings")
    }

    /// Two followers of the same record get the very same bytes (one encoding), and lines are kept only for the
    /// newest `sharedLineWindow` records: a ring of 30 000 followed to the end holds at most that many lines.
    func testSharedLinesAreEncodedOnceAndKeptOnlyForTheNewestRecords() async throws {
        let total = 30_000
        let recorder = try Recorder(memoryLimit: total)
        var a = RecordFollower(recorder: recorder, after: 0)
        var b = RecordFollower(recorder: recorder, after: 0)
        var encoderA = RecordLineEncoder(), encoderB = RecordLineEncoder()
        for _ in 0..<total {
            recorder.append(RecorderTests.sample())
            // Followers keep up in batches while records arrive (as live followers do).
            if recorder.lastSequence % 1_000 == 0 {
                for batch in await readAll(&a, through: recorder.lastSequence) {
                    for record in batch.records { _ = encoderA.line(for: record) }
                }
                for batch in await readAll(&b, through: recorder.lastSequence) {
                    for record in batch.records {
                        let line = encoderB.line(for: record)
                        let again = encoderA.line(for: record)
                        let same = line.withUnsafeBufferPointer { l in again.withUnsafeBufferPointer { $0.baseAddress == l.baseAddress } }
                        XCTAssertTrue(same, "seq \(record.seq): the second follower gets the first one's line, not a new encoding")
                        if !same { return }
                    }
                }
            }
        }
        let kept = (1...UInt64(total)).filter { recorder.numberedRecord(seq: $0)?.keepsLine == true }
        XCTAssertLessThanOrEqual(kept.count, Int(RecordFeed.sharedLineWindow))
        XCTAssertEqual(kept.first, UInt64(total) - RecordFeed.sharedLineWindow + 1, "the newest records keep theirs")
        XCTAssertEqual(kept.last, UInt64(total))
    }

    func testAWaitingFollowerWakesOnANewRecordAndTimesOutWithAnEmptyBatch() async throws {
        let recorder = try Recorder(memoryLimit: 10)
        var follower = RecordFollower(recorder: recorder, after: 0)
        let empty = await follower.next(timeout: .milliseconds(50))
        XCTAssertEqual(empty?.records.count, 0, "a timeout gives an empty batch, not the end")
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.1) { recorder.append(RecorderTests.sample()) }
        let woken = await follower.next(timeout: .seconds(30))
        XCTAssertEqual(woken?.records.map(\.seq), [1])
        recorder.shutdown()
        let ended = await follower.next(timeout: .seconds(30))
        XCTAssertNil(ended, "a shut-down recorder ends its followers")
    }

    /// A follower that wants only the newest few passes over the rest, says which, and misses nothing after.
    func testKeepNewestPassesOverOlderRecordsAndSaysWhich() async throws {
        let recorder = try Recorder(memoryLimit: 10_000)
        var follower = RecordFollower(recorder: recorder, after: 0)
        follower.keepNewest = 100
        store(1_000, in: recorder)
        let first = await follower.next(timeout: .seconds(5))
        XCTAssertEqual(first?.elided, 1...900)
        XCTAssertNil(first?.skipped, "passed over on purpose, not lost")
        XCTAssertEqual(first?.records.map(\.seq), Array(901...1_000))
        store(30, in: recorder)
        let second = await follower.next(timeout: .seconds(5))
        XCTAssertNil(second?.elided)
        XCTAssertEqual(second?.records.map(\.seq), Array(1_001...1_030))
    }

    /// A position from the wire past every record (`since=18446744073709551615`) waits for news instead of
    /// overflowing `position + 1`.
    func testAPositionAtTheLargestSeqWaitsInsteadOfOverflowing() async throws {
        let recorder = try Recorder(memoryLimit: 10)
        store(3, in: recorder)
        var follower = RecordFollower(recorder: recorder, after: .max)
        let batch = await follower.next(timeout: .milliseconds(50))
        XCTAssertEqual(batch?.records.count, 0)
        XCTAssertNil(batch?.skipped)
    }
}
