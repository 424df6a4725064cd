import APNsModel
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Support
import MockTestSupport
import XCTest
@testable import MockAPNs
@testable import MockAPNsRecording

/// The record file under log rotation: logrotate's `copytruncate` (the file cut to 0 bytes while the writer holds
/// it open) and rename rotation (`mv`, then `reopenFile()` as SIGHUP does). Every file read back holds whole JSON
/// lines only, no NUL byte, and together they hold every record exactly once.
final class RecordFileRotationTests: LeakCheckedTestCase {
    private var directory: String!

    override func setUpWithError() throws {
        directory = try makeTestDirectory("rotation")
    }

    /// The `seq`s in `path`, checking that each line is a whole record and that the file has no NUL byte.
    private func seqs(_ path: String) throws -> [UInt64] {
        let data = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        XCTAssertFalse(data.contains(0), "no NUL byte in \(path)")
        XCTAssertTrue(data.isEmpty || data.last == UInt8(ascii: "\n"), "\(path) ends with a whole line")
        return try data.split(separator: UInt8(ascii: "\n")).map { try RecordedRequest(jsonLine: Array($0)).seq }
    }

    private func lines(_ range: ClosedRange<Int>) -> [UInt8] {
        range.flatMap { Array("{\"seq\":\($0),\"pad\":\"xxxxxxxxxxxxxxxx\"}\n".utf8) }
    }

    func testAppenderWritesAtTheNewEndAfterTheFileWasCutUnderIt() throws {
        let path = directory + "/cut.jsonl"
        let appender = try RecordFileAppender(path: path)
        let first = lines(1...50)
        guard case .success(let before) = first.withUnsafeBytes({ appender.append($0) }) else { return XCTFail("first") }
        XCTAssertNil(before.truncatedFrom)
        XCTAssertEqual(truncate(path, 0), 0, "what copytruncate does after copying")
        let second = lines(51...60)
        guard case .success(let after) = second.withUnsafeBytes({ appender.append($0) }) else { return XCTFail("second") }
        XCTAssertEqual(after.truncatedFrom, Int64(first.count), "the cut is reported once")
        XCTAssertEqual(try [UInt8](Data(contentsOf: URL(fileURLWithPath: path))), second,
                       "the next batch starts at byte 0: no hole of NUL bytes where the old end was")
        XCTAssertEqual(appender.end, Int64(second.count))
    }

    func testReopenAfterARenameWritesToANewFileAtThePath() throws {
        let path = directory + "/renamed.jsonl"
        let appender = try RecordFileAppender(path: path)
        let first = lines(1...20)
        guard case .success = first.withUnsafeBytes({ appender.append($0) }) else { return XCTFail("first") }
        XCTAssertEqual(rename(path, path + ".1"), 0)
        let found = try appender.reopen()
        XCTAssertEqual(found.wholeLinesEnd, 0, "a new, empty file")
        let second = lines(21...30)
        guard case .success = second.withUnsafeBytes({ appender.append($0) }) else { return XCTFail("second") }
        XCTAssertEqual(try [UInt8](Data(contentsOf: URL(fileURLWithPath: path + ".1"))), first)
        XCTAssertEqual(try [UInt8](Data(contentsOf: URL(fileURLWithPath: path))), second)
    }

    /// A path that cannot be opened any more (its directory is gone): the appender keeps its old file.
    func testReopenFailureKeepsWritingToTheOldFile() throws {
        let sub = directory + "/sub"
        try FileManager.default.createDirectory(atPath: sub, withIntermediateDirectories: true)
        let path = sub + "/rec.jsonl"
        let appender = try RecordFileAppender(path: path)
        XCTAssertEqual(rename(path, directory + "/moved.jsonl"), 0)
        XCTAssertEqual(rmdir(sub), 0)
        XCTAssertThrowsError(try appender.reopen())
        let batch = lines(1...5)
        guard case .success = batch.withUnsafeBytes({ appender.append($0) }) else { return XCTFail("append") }
        XCTAssertEqual(try [UInt8](Data(contentsOf: URL(fileURLWithPath: directory + "/moved.jsonl"))), batch)
    }

    /// copytruncate while records keep arriving from several threads: the copy and the cut happen between two of the
    /// writer's batches (the `beforeFileBatch` hook), so the copies plus the file hold every record exactly once.
    func testCopyTruncateUnderLoadLosesNothingAndLeavesNoHole() throws {
        let path = directory + "/copytruncate.jsonl"
        let rotations = Locked(0)
        let batches = Locked(0)
        let dir = directory!
        let recorder = try Recorder(memoryLimit: 100, filePath: path, fileQueueLimit: 1 << 16, beforeFileBatch: {
            let batch = batches.withLock { value -> Int in value += 1; return value }
            guard batch % 3 == 0 else { return }
            let number = rotations.withLock { value -> Int in value += 1; return value }
            let copy = dir + "/copytruncate.jsonl.\(number)"
            if let data = FileManager.default.contents(atPath: path) {
                _ = FileManager.default.createFile(atPath: copy, contents: data)
            }
            _ = truncate(path, 0)
        })
        let perThread = 3_000
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            for index in 0..<perThread {
                recorder.append(RecorderTests.sample())
                if index % 500 == 0 { usleep(20_000) }   // spread the records over several batches
            }
        }
        recorder.shutdown()
        let count = rotations.withLock { $0 }
        XCTAssertGreaterThan(count, 0, "rotated while records were arriving")
        var all: [UInt64] = []
        for number in 1...max(1, count) where FileManager.default.fileExists(atPath: path + ".\(number)") {
            let part = try seqs(path + ".\(number)")
            XCTAssertEqual(part, part.sorted(), "in seq order")
            all += part
        }
        let rest = try seqs(path)
        XCTAssertEqual(rest, rest.sorted())
        all += rest
        XCTAssertEqual(all.sorted(), Array(1...UInt64(4 * perThread)), "every record once, across the files")
    }

    /// Rename rotation while records keep arriving: `reopenFile()` between renames; the files together hold every
    /// record exactly once and each is whole.
    func testRenameRotationUnderLoadLosesNothing() throws {
        let path = directory + "/renamed-load.jsonl"
        let recorder = try Recorder(memoryLimit: 100, filePath: path)
        let perThread = 3_000
        let rotations = 4
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) {
            DispatchQueue.concurrentPerform(iterations: 3) { _ in
                for index in 0..<perThread {
                    recorder.append(RecorderTests.sample())
                    if index % 300 == 0 { usleep(5_000) }
                }
            }
        }
        for number in 1...rotations {
            usleep(40_000)
            XCTAssertEqual(rename(path, path + ".\(number)"), 0)
            recorder.reopenFile()
        }
        group.wait()
        recorder.shutdown()
        var all: [UInt64] = []
        for number in 1...rotations {
            let part = try seqs(path + ".\(number)")
            XCTAssertEqual(part, part.sorted(), "in seq order")
            all += part
        }
        all += try seqs(path)
        XCTAssertEqual(all.sorted(), Array(1...UInt64(3 * perThread)), "every record once, across the files")
    }
}
