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

/// `RecordFileAppender` writes whole-line batches: the file holds exactly what was appended, a short write is
/// continued, a failed write leaves no partial line and no hole and does not move the end, and an existing file is
/// continued after its last whole line.
final class RecordFileAppenderTests: LeakCheckedTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = URL(fileURLWithPath: try makeTestDirectory("appender"))
    }

    private func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    private func contents(_ path: String) throws -> [UInt8] { try [UInt8](Data(contentsOf: URL(fileURLWithPath: path))) }

    private func lines(_ count: Int, from first: Int = 1, width: Int = 40) -> [UInt8] {
        (first..<first + count).flatMap { seq -> [UInt8] in
            let line = "{\"seq\":\(seq),\"pad\":\"" + String(repeating: "x", count: width) + "\"}\n"
            return Array(line.utf8)
        }
    }

    /// A disk that takes at most `chunk` bytes per write, and fails with `failing` (an errno) while set.
    final class FakeDisk: Sendable {
        let failing = Locked<Int32>(0)
        let chunk = Locked<Int>(.max)
        let writes = Locked<Int>(0)
        /// Bytes the disk still takes (ENOSPC once they are used up).
        let room = Locked<Int>(.max)

        var operations: RecordFileAppender.FileOperations {
            RecordFileAppender.FileOperations(
                write: { [self] fd, bytes, count, offset in
                    writes.withLock { $0 += 1 }
                    let code = failing.withLock { $0 }
                    let size = min(count, chunk.withLock { $0 })
                    if code != 0 {
                        // A full disk often takes part of a write before refusing the rest.
                        if count > 1 { _ = pwrite(fd, bytes, count / 2, off_t(offset)) }
                        errno = code
                        return -1
                    }
                    let taken = room.withLock { room -> Int in
                        let taken = min(size, room)
                        if room != .max { room -= taken }
                        return taken
                    }
                    if taken == 0 {
                        errno = ENOSPC
                        return -1
                    }
                    return pwrite(fd, bytes, taken, off_t(offset))
                },
                truncate: RecordFileAppender.FileOperations.system.truncate)
        }
    }

    func testAppendsExactlyTheBytesAfterWhatTheFileHeld() throws {
        let file = path("records.jsonl")
        let existing = lines(3)
        XCTAssertTrue(FileManager.default.createFile(atPath: file, contents: Data(existing)))
        let appender = try RecordFileAppender(path: file)
        XCTAssertEqual(appender.recovery, RecordFileRecovery(wholeLinesEnd: Int64(existing.count), highestSeq: 3, trimmedBytes: 0))
        var expected = existing
        for (index, count) in [1, 7, 100, 1].enumerated() {
            let batch = lines(count, from: 100 * (index + 1))
            guard case .success = batch.withUnsafeBytes({ appender.append($0) }) else { return XCTFail("batch \(index) failed") }
            expected += batch
            XCTAssertEqual(try contents(file), expected, "after batch \(index)")
            XCTAssertEqual(appender.end, Int64(expected.count))
        }
    }

    /// A disk that takes a few bytes per call: the appender continues where each write stopped.
    func testShortWritesAreContinued() throws {
        let file = path("short.jsonl")
        let disk = FakeDisk()
        disk.chunk.withLock { $0 = 7 }
        let appender = try RecordFileAppender(path: file, operations: disk.operations)
        let batch = lines(20)
        guard case .success = batch.withUnsafeBytes({ appender.append($0) }) else { return XCTFail("failed") }
        XCTAssertEqual(try contents(file), batch)
        XCTAssertEqual(appender.end, Int64(batch.count))
        XCTAssertGreaterThan(disk.writes.withLock { $0 }, 20, "many short writes")
    }

    /// ENOSPC after part of a batch was taken: the file is cut back to its last whole line and the end stays there,
    /// so writing the same batch once there is room leaves the file whole, without a hole or a torn line.
    func testFailedWriteLeavesNoPartialLineAndDoesNotMoveTheEnd() throws {
        let file = path("full.jsonl")
        let disk = FakeDisk()
        let appender = try RecordFileAppender(path: file, operations: disk.operations)
        let first = lines(5)
        guard case .success = first.withUnsafeBytes({ appender.append($0) }) else { return XCTFail("failed") }
        disk.failing.withLock { $0 = ENOSPC }
        let second = lines(5, from: 6)
        guard case .failure(let failure) = second.withUnsafeBytes({ appender.append($0) }) else { return XCTFail("must fail") }
        XCTAssertEqual(failure.code, ENOSPC)
        XCTAssertTrue(failure.message.contains("No space left on device"), failure.message)
        XCTAssertEqual(try contents(file), first, "the part of the batch the disk took is cut off")
        XCTAssertEqual(appender.end, Int64(first.count), "the end moves only by bytes written")
        disk.failing.withLock { $0 = 0 }
        guard case .success = second.withUnsafeBytes({ appender.append($0) }) else { return XCTFail("retry failed") }
        XCTAssertEqual(try contents(file), first + second)
        XCTAssertFalse(try contents(file).contains(0), "no hole of NUL bytes")
    }

    /// A disk that fills up in the middle of a batch: the whole lines it took stay, the partial one is cut off, the
    /// end is after the last whole line, and the rest is written from there once there is room again.
    func testWholeLinesThatFitStayAndTheRestFollowsOnceThereIsRoom() throws {
        let file = path("filling.jsonl")
        let disk = FakeDisk()
        let appender = try RecordFileAppender(path: file, operations: disk.operations)
        let batch = lines(10)
        let lineLength = batch.count / 10
        disk.room.withLock { $0 = lineLength * 3 + lineLength / 2 }
        guard case .failure(let failure) = batch.withUnsafeBytes({ appender.append($0) }) else { return XCTFail("must fail") }
        XCTAssertEqual(failure.code, ENOSPC)
        XCTAssertEqual(failure.written, lineLength * 3)
        XCTAssertEqual(try contents(file), Array(batch[0..<lineLength * 3]), "three whole lines, no partial fourth")
        XCTAssertEqual(appender.end, Int64(lineLength * 3))
        disk.room.withLock { $0 = .max }
        let rest = Array(batch[(lineLength * 3)...])
        guard case .success = rest.withUnsafeBytes({ appender.append($0) }) else { return XCTFail("retry failed") }
        XCTAssertEqual(try contents(file), batch)
    }

    /// A file whose last line was torn by a crash: the fragment is cut off, numbering goes on after the highest seq
    /// (even if an earlier line has it), and the next line starts on a line of its own.
    func testExistingFileWithATornTailIsTrimmedAndItsHighestSeqFound() throws {
        let file = path("torn.jsonl")
        let whole = lines(2, from: 41) + lines(1, from: 7)
        let torn = Array("{\"seq\":43,\"pad\":\"xx".utf8)
        XCTAssertTrue(FileManager.default.createFile(atPath: file, contents: Data(whole + torn)))
        let appender = try RecordFileAppender(path: file)
        XCTAssertEqual(appender.recovery.highestSeq, 42)
        XCTAssertEqual(appender.recovery.trimmedBytes, Int64(torn.count))
        XCTAssertEqual(try contents(file), whole, "the torn tail is gone at open")
        let next = lines(1, from: 43)
        guard case .success = next.withUnsafeBytes({ appender.append($0) }) else { return XCTFail("failed") }
        XCTAssertEqual(try contents(file), whole + next)
    }

    /// Long lines cross the scanner's read chunks; a file without any newline is all torn tail.
    func testRecoveryAcrossChunksAndWithoutNewline() throws {
        let file = path("long.jsonl")
        let big = lines(3, from: 1_000_000, width: 700_000)
        XCTAssertTrue(FileManager.default.createFile(atPath: file, contents: Data(big)))
        XCTAssertEqual(try RecordFileAppender(path: file).recovery,
                       RecordFileRecovery(wholeLinesEnd: Int64(big.count), highestSeq: 1_000_002, trimmedBytes: 0))
        let fragment = path("fragment.jsonl")
        XCTAssertTrue(FileManager.default.createFile(atPath: fragment, contents: Data("{\"seq\":9".utf8)))
        XCTAssertEqual(try RecordFileAppender(path: fragment).recovery,
                       RecordFileRecovery(wholeLinesEnd: 0, highestSeq: 0, trimmedBytes: 8))
        XCTAssertEqual(try contents(fragment), [])
    }

    func testUnwritableDirectoryIsAnError() {
        XCTAssertThrowsError(try RecordFileAppender(path: "/nonexistent-dir/records.jsonl")) { error in
            guard case RecorderError.cannotOpenFile(let path, _) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(path, "/nonexistent-dir/records.jsonl")
        }
    }
}
