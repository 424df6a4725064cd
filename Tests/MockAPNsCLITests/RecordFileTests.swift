import APNsModel
import Foundation
import MockAPNs
import XCTest
@testable import MockAPNsCLI
import TestSupport

/// Reading a `serve --record` file (`list`, `show`, `stats`, `expect`, `export --file`): forwards in chunks, backwards
/// from the end, a torn last line, blank and CRLF lines, and the messages for files that are not recordings.
final class RecordFileTests: LeakCheckedTestCase {
    func testForEachRecordReadsEveryRecordInFileOrder() throws {
        let records = try InspectFixtures.records()
        XCTAssertEqual(records.map(\.seq), Array(1...17))
        XCTAssertEqual(records[7].response.reason, "ServiceUnavailable")
        XCTAssertEqual(records[7].faults, ["down"])
    }

    func testTornLastLineIsLeftOutAndBlankAndCRLFLinesAreSkipped() throws {
        // recording-torn.jsonl: a blank line of spaces and tabs, a CRLF line and half of record 18 without a newline.
        let records = try InspectFixtures.records(InspectFixtures.tornRecording)
        XCTAssertEqual(records.map(\.seq), Array(1...17))
        XCTAssertEqual(records, try InspectFixtures.records())
    }

    func testALastLineWithoutNewlineThatParsesIsRead() throws {
        let text = recordingText([makeRecord(seq: 1), makeRecord(seq: 2)])
        let path = try writeTestFile("rec.jsonl", String(text.dropLast()))   // no newline after record 2
        var seqs: [UInt64] = []
        let stoppedAt = try RecordFile(path: path).forEachRecord { record in
            seqs.append(record.seq)
            return true
        }
        XCTAssertEqual(seqs, [1, 2])
        XCTAssertEqual(stoppedAt, text.utf8.count - 1, "the offset after the unterminated record")
    }

    func testAHalfWrittenLastRecordIsLeftOutForwardsAndBackwards() throws {
        let whole = recordingText([makeRecord(seq: 1), makeRecord(seq: 2)])
        let torn = String(decoding: makeRecord(seq: 3).jsonLine().prefix(40), as: UTF8.self)
        let path = try writeTestFile("rec.jsonl", whole + torn)
        var seqs: [UInt64] = []
        let stoppedAt = try RecordFile(path: path).forEachRecord { record in
            seqs.append(record.seq)
            return true
        }
        XCTAssertEqual(seqs, [1, 2])
        XCTAssertEqual(stoppedAt, whole.utf8.count, "reading stops where the torn line starts")
        XCTAssertEqual(try RecordFile(path: path).newest(5, matching: RecordFilter()).map(\.seq), [1, 2])
    }

    func testForEachRecordStopsWhenTheBodySaysSoAndReturnsWhereItStopped() throws {
        let lines = [makeRecord(seq: 1), makeRecord(seq: 2), makeRecord(seq: 3)].map { String(decoding: $0.jsonLine(), as: UTF8.self) }
        let path = try writeTestFile("rec.jsonl", lines.joined())
        var seen: [UInt64] = []
        let stoppedAt = try RecordFile(path: path).forEachRecord { record in
            seen.append(record.seq)
            return record.seq < 2
        }
        XCTAssertEqual(seen, [1, 2])
        XCTAssertEqual(stoppedAt, lines[0].utf8.count + lines[1].utf8.count)
        var again: [UInt64] = []
        try RecordFile(path: path).forEachRecord(upTo: stoppedAt) { record in
            again.append(record.seq)
            return true
        }
        XCTAssertEqual(again, [1, 2], "a second pass up to the offset reads the same lines")
    }

    /// `tail --file`: appended records arrive, a line still being written waits for its newline, numbering goes on
    /// across reads (a bad line names its line in the whole file), and a file cut short is read again from its start.
    func testFollowReadsAppendedWholeLinesNumberedAcrossReads() async throws {
        let path = try writeTestFile("grow.jsonl", recordingText([makeRecord(seq: 1)]) + "\n")   // a blank line 2
        let stream = try RecordFile(path: path).follow(matching: RecordFilter(), includeExisting: true)
        var iterator = stream.makeAsyncIterator()
        let first = try await iterator.next()
        XCTAssertEqual(first?.seq, 1)

        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: path))
        addTeardownBlock { try? handle.close() }
        handle.seekToEndOfFile()
        let second = Array(makeRecord(seq: 2).jsonLine())
        handle.write(Data(second.prefix(30)))                    // half of line 3: not handed over yet
        try await Task.sleep(for: RecordFile.pollInterval * 2)
        handle.write(Data(second.dropFirst(30)))
        let next = try await iterator.next()
        XCTAssertEqual(next?.seq, 2, "the line, once whole")

        handle.write(Data("not a record\n".utf8))                // line 4
        do {
            _ = try await iterator.next()
            XCTFail("a bad line was followed")
        } catch {
            XCTAssertTrue("\(error)".contains("line 4 is not a mockapns record"), "\(error)")
        }
    }

    func testABadLineInTheMiddleIsAnErrorNamingItsLineNumber() throws {
        let good = recordingText([makeRecord(seq: 1)])
        let path = try writeTestFile("rec.jsonl", good + "\n" + "{\"not\": \"a record\"}\n" + recordingText([makeRecord(seq: 3)]))
        XCTAssertThrowsError(try InspectFixtures.records(path)) { error in
            let text = (error as? InspectError)?.description ?? "\(error)"
            XCTAssertTrue(text.hasPrefix("Cannot read \(path): line 3 is not a mockapns record ("), text)
            XCTAssertTrue(text.hasSuffix("); is this a file written by `mockapns serve --record`?."), text)
        }
    }

    func testAMissingFileAndAFolderGetTheirOwnReasons() throws {
        XCTAssertThrowsError(try InspectFixtures.records("/nonexistent/rec.jsonl")) { error in
            XCTAssertEqual((error as? InspectError)?.description, "Cannot read /nonexistent/rec.jsonl: no such file.")
        }
        let folder = try makeTestDirectory("mockapns-cli")
        XCTAssertThrowsError(try InspectFixtures.records(folder)) { error in
            XCTAssertEqual((error as? InspectError)?.description, "Cannot read \(folder): permission denied or not a regular file.")
        }
    }

    func testNewestReadsTheLastMatchesOldestFirst() throws {
        let file = RecordFile(path: InspectFixtures.tornRecording)
        XCTAssertEqual(try file.newest(3, matching: RecordFilter()).map(\.seq), [15, 16, 17])
        XCTAssertEqual(try file.newest(2, matching: RecordFilter(status: 503)).map(\.seq), [10, 11])
        XCTAssertEqual(try file.newest(100, matching: RecordFilter(topic: "com.example.other")).map(\.seq), [7])
        XCTAssertEqual(try file.newest(0, matching: RecordFilter()), [])
    }

    func testNewestReportsABadLineItReadsWithItsLineNumber() throws {
        let path = try writeTestFile("rec.jsonl", recordingText([makeRecord(seq: 1)]) + "garbage\n" + recordingText([makeRecord(seq: 3)]))
        XCTAssertEqual(try RecordFile(path: path).newest(1, matching: RecordFilter()).map(\.seq), [3], "the bad line is older")
        XCTAssertThrowsError(try RecordFile(path: path).newest(2, matching: RecordFilter())) { error in
            let text = (error as? InspectError)?.description ?? "\(error)"
            XCTAssertTrue(text.hasPrefix("Cannot read \(path): line 2 is not a mockapns record"), text)
        }
    }

    func testRecordFindsBySeqAndByAPNsIDInAnyCase() throws {
        let file = RecordFile(path: InspectFixtures.recording)
        XCTAssertEqual(try file.record("12")?.response.reason, "Unregistered")
        // Records 8 to 11 share an apns-id (retries): the first one is the answer.
        XCTAssertEqual(try file.record("AA87CE3C-341D-43E5-B696-08A75F2F151B")?.seq, 8)
        XCTAssertNil(try file.record("99"))
        XCTAssertNil(try file.record("no-such-id"))
    }

    func testScannerSplitsLinesAcrossChunksWithNumbersOffsetsAndTheTornTail() throws {
        let text = "first\r\n\n  \t\nsecond line\nthird"
        let path = try writeTestFile("lines.txt", text)
        for chunkSize in [1, 2, 3, 7, 64] {
            let lines = try scan(path) { scanner in scanner.chunkSize = chunkSize }
            XCTAssertEqual(lines.map(\.text), ["first", "second line", "third"], "chunk size \(chunkSize)")
            XCTAssertEqual(lines.map(\.number), [1, 4, 5], "chunk size \(chunkSize)")
            XCTAssertEqual(lines.map(\.offset), [0, 12, 24], "chunk size \(chunkSize)")
            XCTAssertEqual(lines.map(\.unterminated), [false, false, true], "chunk size \(chunkSize)")
        }
    }

    func testScannerStopsBeforeLinesStartingAtOrAfterItsEnd() throws {
        let path = try writeTestFile("lines.txt", "one\ntwo\nthree\n")
        XCTAssertEqual(try scan(path) { $0.end = 4 }.map(\.text), ["one"])
        XCTAssertEqual(try scan(path) { $0.end = 5 }.map(\.text), ["one", "two"])
    }

    func testBackwardScannerReadsNewestFirstAndCountsLineNumbersOnRequest() throws {
        let text = "one\n\ntwo\r\nthree\nfour"
        let path = try writeTestFile("lines.txt", text)
        let descriptor = open(path, O_RDONLY)
        defer { close(descriptor) }
        let scanner = RecordLineBackwardScanner(descriptor: descriptor, path: path, end: text.utf8.count)
        var lines: [(text: String, offset: Int, unterminated: Bool)] = []
        try scanner.forEachLine { line in
            lines.append((String(decoding: line.bytes, as: UTF8.self), line.offset, line.unterminated))
            return true
        }
        XCTAssertEqual(lines.map(\.text), ["four", "three", "two", "one"])
        XCTAssertEqual(lines.map(\.offset), [16, 10, 5, 0])
        XCTAssertEqual(lines.map(\.unterminated), [true, false, false, false])
        XCTAssertEqual(try scanner.lineNumber(at: 10), 4)
        XCTAssertEqual(try scanner.lineNumber(at: 0), 1)
    }

    private func scan(_ path: String, _ configure: (inout RecordLineScanner) -> Void) throws
        -> [(text: String, number: Int, offset: Int, unterminated: Bool)]
    {
        let descriptor = open(path, O_RDONLY)
        defer { close(descriptor) }
        var scanner = RecordLineScanner(descriptor: descriptor, path: path)
        configure(&scanner)
        var lines: [(text: String, number: Int, offset: Int, unterminated: Bool)] = []
        try scanner.forEachLine { line in
            lines.append((String(decoding: line.bytes, as: UTF8.self), line.number, line.offset, line.unterminated))
            return true
        }
        return lines
    }
}
