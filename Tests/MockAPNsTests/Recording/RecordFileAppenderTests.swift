import Foundation
import XCTest
@testable import MockAPNs

/// `RecordFileAppender` writes whole blocks directly and the partial last block through the page cache: after
/// every append the file must hold exactly what was appended, on file systems with and without `O_DIRECT`,
/// and after what the file held before.
final class RecordFileAppenderTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("appender-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    /// Appends pieces of many sizes (inside one block, ending exactly on a boundary, spanning several blocks)
    /// and checks the whole file after each.
    @discardableResult
    private func exercise(path: String, startingWith existing: [UInt8] = []) throws -> RecordFileAppender {
        if !existing.isEmpty { XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(existing))) }
        let appender = try RecordFileAppender(path: path)
        var expected = existing
        var generator = SystemRandomNumberGenerator()
        let sizes = [1, 100, 3995, 4096, 1, 8191, 12_288, 7, 70_000, 4096 - 7, 1300, 1300, 1300, 250_000, 3]
        for (index, size) in sizes.enumerated() {
            let piece = (0..<size).map { _ in UInt8.random(in: 0x20...0x7E, using: &generator) }
            piece.withUnsafeBytes { appender.append($0) }
            expected += piece
            let onDisk = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
            XCTAssertEqual(onDisk.count, expected.count, "after piece \(index) (\(size) bytes)")
            XCTAssertTrue(onDisk == expected, "content after piece \(index) (\(size) bytes) differs")
        }
        XCTAssertNil(appender.failure)
        appender.close()
        return appender
    }

    func testEveryAppendLeavesExactlyTheBytesAppended() throws {
        try exercise(path: directory.appendingPathComponent("records.jsonl").path)
    }

    func testAppendsAfterAnExistingPartialBlock() throws {
        let existing = Array(repeating: UInt8(ascii: "e"), count: 4096 * 2 + 777)
        try exercise(path: directory.appendingPathComponent("existing.jsonl").path, startingWith: existing)
    }

    /// tmpfs (Linux's /dev/shm) refuses O_DIRECT (on the kernels seen here): the appender must fall back to the
    /// page cache and still append exactly.
    func testFileSystemWithoutDirectIO() throws {
        let shm = URL(fileURLWithPath: "/dev/shm")
        let path = shm.appendingPathComponent("appender-\(UUID().uuidString).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try exercise(path: path, startingWith: Array("{\"seq\":1}\n".utf8))
    }

    func testUnwritableDirectoryIsAnError() {
        XCTAssertThrowsError(try RecordFileAppender(path: "/nonexistent-dir/records.jsonl")) { error in
            guard case RecorderError.cannotOpenFile(let path, _) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(path, "/nonexistent-dir/records.jsonl")
        }
    }
}
