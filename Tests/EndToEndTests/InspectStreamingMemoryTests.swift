import Foundation
import MockAPNs
import PeerSupport
import XCTest

/// The inspection commands read a recording in constant memory: a command's peak RSS on an 80 000-record file is
/// no larger than on a 20 000-record one (give or take a margin), where reading the file into memory costs ~5 KB a
/// record (~300 MB more on the larger file). (Sizes are kept small because the debug build decodes ~7 000 records
/// a second; `bench/bigrec.sh` measures 1 000 000.)
final class InspectStreamingMemoryTests: LeakCheckedTestCase {
    /// Allowed growth of the peak RSS from the small to the large file.
    static let marginKB = 24 * 1024

    /// A recording of `count` records: the recorder's own line for one push, repeated with rising `seq`, apns-id,
    /// device token and title, written straight to the file.
    private func recording(_ count: Int) throws -> String {
        let token = String(repeating: "ab", count: 32)
        let apnsID = "00000000-0000-4000-8000-000000000001"
        let template = String(decoding: InspectRecording.record(seq: 1, token: token, title: "Order 0").jsonLine(), as: UTF8.self)
        XCTAssertTrue(template.hasPrefix(#"{"seq":1,"#), template)
        // The line cut where the apns-id and the token go: [text, id, text, token, text, token, ...].
        let pieces = String(template.dropFirst(#"{"seq":1,"#.count)).components(separatedBy: apnsID)
            .map { $0.components(separatedBy: token) }
        XCTAssertEqual(pieces.count, 2, template)
        let directory = URL(fileURLWithPath: try makeTestDirectory("mockapns-memory"))
        let path = directory.appendingPathComponent("rec-\(count).jsonl").path
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: nil))
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: path))
        defer { try? handle.close() }
        var block = ""
        for seq in 1...count {
            let hexToken = String(format: "%064x", seq)
            block += #"{"seq":\#(seq),"#
            block += pieces.map { $0.joined(separator: hexToken) }.joined(separator: String(format: "00000000-0000-4000-8000-%012d", seq))
            if block.utf8.count > 1 << 20 {
                try handle.write(contentsOf: Data(block.utf8))
                block = ""
            }
        }
        try handle.write(contentsOf: Data(block.utf8))
        return path
    }

    func testPeakMemoryDoesNotGrowWithTheRecording() throws {
        let small = try recording(20_000)
        let large = try recording(80_000)
        let commands: [(String) -> [String]] = [
            { ["stats", "--file", $0, "--json"] },
            { ["list", "--file", $0, "--limit", "5"] },
            { ["show", "--file", $0, "10000"] },
            { ["expect", "--file", $0, "--where", "aps.badge=2", "--none"] },
            { file in ["export", "--file", file, "-o", file + ".out"] },
        ]
        for command in commands {
            let before = try PeakMemory.run(command(small))
            let after = try PeakMemory.run(command(large))
            XCTAssertEqual(before.status, 0, "\(command(small))")
            XCTAssertEqual(after.status, 0, "\(command(large))")
            XCTAssertLessThan(after.peakKB, before.peakKB + Self.marginKB,
                              "\(command(large).prefix(1)): peak RSS \(before.peakKB) KB at 20 000 records, \(after.peakKB) KB at 80 000")
        }
    }
}
