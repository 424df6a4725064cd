import APNsModel
import Foundation
import MockAPNs
import MockAPNsControl
import PeerSupport
import XCTest

/// `mockapns tail --server` never hides records it did not print: a follower behind what the server still holds
/// (no record file, a small memory ring) gets a `gap` event with the exact range, says so on stderr, and counts
/// it in its closing summary.
final class InspectTailGapTests: LeakCheckedTestCase {
    func testTailSaysWhichRecordsTheServerNoLongerHad() async throws {
        var configuration = MockConfiguration()
        configuration.trustBundledKeys = false
        configuration.memoryLimit = 100
        let mock = try Mock(configuration: configuration)
        addTeardownBlock { mock.shutdown() }
        for _ in 0..<500 { mock.recorder.append(InspectRecording.record(seq: 0, title: "Burst")) }
        let control = ControlServer(mock: mock, configuration: ControlConfiguration(port: 0))
        addTeardownBlock { await control.stop() }
        let port = try await control.start()
        let url = "http://127.0.0.1:\(port)"

        // The raw stream: the gap event first, with the exact range, then the records memory still holds.
        // curl reads the stream for a second (its --max-time ends it, exit status 28).
        let raw = try PeerProcess.run("/usr/bin/curl", ["-sN", "--max-time", "1", "\(url)/api/v1/stream?since=0"])
        let lines = raw.stdout.split(separator: "\n").map(String.init)
        XCTAssertTrue(lines.contains("event: gap"), "\(lines)")
        XCTAssertTrue(lines.contains(#"data: {"from":1,"through":400,"count":400}"#), "\(lines)")

        let tail = try InspectFollowProcess(["tail", "--server", url, "--since", "0", "--json"])
        let output = try await tail.waitForLines(100)
        let seqs = output.split(separator: "\n").compactMap { try? JSONValue.parse(Array($0.utf8))["seq"]?.integerValue }
        XCTAssertEqual(seqs, Array(401...500), "after the gap, every record the server holds, whole and in order")
        tail.stop()
        let result = try await tail.waitForExit()
        let stderr = result?.stderr ?? ""
        XCTAssertTrue(stderr.contains("skipped 400 record(s) (seq 1–400)"), stderr)
        XCTAssertTrue(stderr.contains("100 record(s) printed, 400 skipped in 1 gap(s)"), stderr)
    }
}
