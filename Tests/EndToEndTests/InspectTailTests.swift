import APNsModel
import PeerSupport
import XCTest

/// `mockapns tail --file`: existing records, then appended ones, like `tail -f`.
final class InspectTailTests: LeakCheckedTestCase {
    func testTailPrintsExistingThenAppendedRecords() async throws {
        let file = try InspectRecording.write(Array(InspectRecording.standard.prefix(2)))
        let tail = try InspectFollowProcess(["tail", "--file", file, "--json"])
        defer { tail.stop() }
        try await tail.waitForLines(2)
        try InspectRecording.append(InspectRecording.record(seq: 3, title: "Appended"), to: file)
        let output = try await tail.waitForLines(3)
        let seqs = try output.split(separator: "\n").map { try JSONValue.parse(Array($0.utf8))["seq"]?.integerValue }
        XCTAssertEqual(seqs, [1, 2, 3])
        XCTAssertTrue(output.contains("Appended"))
    }

    func testTailAppliesFiltersAndPrintsTableRows() async throws {
        let file = try InspectRecording.write()
        let tail = try InspectFollowProcess(["tail", "--file", file, "--status", "200"])
        defer { tail.stop() }
        try await tail.waitForLines(2) { $0.contains("200 OK") }
        try InspectRecording.append(InspectRecording.record(seq: 5, status: 400, reason: "BadTopic"), to: file)
        try InspectRecording.append(InspectRecording.record(seq: 6, title: "Sixth"), to: file)
        let output = try await tail.waitForLines(1) { $0.contains("Sixth") }
        XCTAssertFalse(output.contains("BadTopic"), output)
        XCTAssertTrue(output.hasPrefix("SEQ"), output)
    }

    func testTailOfAMissingFileExits2() async throws {
        let result = try await InspectCLI.run(["tail", "--file", "/nonexistent/rec.jsonl"])
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderr.contains("Cannot read /nonexistent/rec.jsonl"), result.stderr)
    }

    func testTailOfAnUnreachableServerExits2() async throws {
        let result = try await InspectCLI.run(["tail", "--server", "http://127.0.0.1:9"])
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderr.contains("No mockapns control plane answered at http://127.0.0.1:9"), result.stderr)
    }
}
