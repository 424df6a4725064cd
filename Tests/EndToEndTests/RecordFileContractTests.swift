import APNsModel
import Foundation
import MockAPNs
import PeerSupport
import Support
import XCTest

/// The recording contract with a real `mockapns serve`: `kill -9` then a restart on the same `--record` file
/// (torn tail trimmed, `seq` continued), and a file that stops taking writes (500 instead of 200, `/metrics`,
/// whole lines only, exit status 3).
final class RecordFileContractTests: LeakCheckedTestCase {
    private static let repo = RepoPaths.root
    private var dir: String!

    override func setUpWithError() throws {
        dir = try makeTestDirectory("record-contract")
    }

    private func jwt() async throws -> String {
        try await InspectCLI.run(["token", "--key-file", "TESTTEAM01:TESTKEY001:\(Self.repo)/certs/AuthKey_TESTKEY001.p8"])
            .stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Sends `count` pushes with h2load; returns its "status codes" line.
    private func pushes(_ count: Int, to url: String, jwt: String) async throws -> String {
        let body = dir + "/body.json"
        try Data(#"{"aps":{"alert":"hello"}}"#.utf8).write(to: URL(fileURLWithPath: body))
        let result = try PeerProcess.run("/usr/bin/h2load", [
            "-n", "\(count)", "-c", "2", "-m", "5", "-d", body,
            "-H", "authorization: bearer \(jwt)", "-H", "apns-topic: com.example.app",
            "\(url)/3/device/\(String(repeating: "0f", count: 32))",
        ])
        return result.stdout.split(separator: "\n").first { $0.contains("status codes:") }.map(String.init) ?? result.stdout
    }

    /// One push with curl: status and body.
    private func push(to url: String, jwt: String) async throws -> String {
        let result = try PeerProcess.run("/usr/bin/curl", [
            "-sS", "--http2-prior-knowledge", "-w", " %{http_code}",
            "-H", "authorization: bearer \(jwt)", "-H", "apns-topic: com.example.app",
            "--data-binary", #"{"aps":{"alert":"hi"}}"#, "\(url)/3/device/\(String(repeating: "0f", count: 32))",
        ])
        return result.stdout
    }

    /// The records of the file at `path`, every line whole. A copy made while the server writes (`copiedMidWrite`, as
    /// copytruncate makes it) may end in part of a line, since Linux grows a file page by page during one write: that
    /// part is left out, its record being in copytruncate's copy-to-cut window.
    private func records(_ path: String, copiedMidWrite: Bool = false) throws -> [RecordedRequest] {
        var data = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        if copiedMidWrite, let end = data.lastIndex(of: UInt8(ascii: "\n")) { data.removeSubrange((end + 1)...) }
        XCTAssertTrue(data.isEmpty || data.last == UInt8(ascii: "\n"), "the file ends with a whole line")
        XCTAssertFalse(data.contains(0), "no NUL hole")
        return try data.split(separator: UInt8(ascii: "\n")).map { try RecordedRequest(jsonLine: Array($0)) }
    }

    /// Waits up to 30 s for `served` to exit; its exit status (nil, failing the test, if it did not stop).
    private func waitForExit(_ served: ServedMock) async throws -> Int32? {
        let exit = try await served.process.waitForExit(timeout: .seconds(30))
        XCTAssertNotNil(exit, "serve did not stop")
        return exit?.status
    }

    func testKillNineThenRestartTrimsTheTornTailAndContinuesSeq() async throws {
        let file = dir + "/rec.jsonl"
        let token = try await jwt()
        let first = try await ServedMock.start(["--h2c", "--port", "0", "--no-control", "--record", file],
                                               readyFile: dir + "/first.ready.json")
        let firstRun = try await pushes(200, to: first.apnsURL, jwt: token)
        XCTAssertTrue(firstRun.contains("200 2xx"), firstRun)
        // kill -9 may lose what the writer has not flushed yet: kill once all 200 lines are in the file.
        let flushed = try await Poll.until(timeout: .seconds(30)) {
            ((try? String(contentsOfFile: file, encoding: .utf8)) ?? "").utf8.lazy.filter { $0 == UInt8(ascii: "\n") }.count >= 200
        }
        XCTAssertTrue(flushed, "the writer did not flush 200 lines")
        first.kill()
        _ = try await waitForExit(first)
        let before = try records(file)
        XCTAssertEqual(before.map(\.seq), Array(1...200), "whole lines, in order")
        // What a crash in the middle of a write leaves: part of a line.
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: file))
        handle.seekToEndOfFile()
        handle.write(Data(#"{"seq":999999,"received_at":"2026-"#.utf8))
        try handle.close()

        let second = try await ServedMock.start(["--h2c", "--port", "0", "--no-control", "--record", file],
                                                readyFile: dir + "/second.ready.json")
        let secondRun = try await pushes(50, to: second.apnsURL, jwt: token)
        XCTAssertTrue(secondRun.contains("50 2xx"), secondRun)
        second.terminate()
        let status = try await waitForExit(second)
        XCTAssertEqual(status, 0, second.process.stderr)
        XCTAssertTrue(second.process.stderr.contains("ended in a torn line (34 bytes"), second.process.stderr)
        XCTAssertTrue(second.process.stderr.contains("continuing \(file) after seq 200"), second.process.stderr)
        let after = try records(file)
        XCTAssertEqual(after.map(\.seq), Array(1...250), "every line whole, seq continued, in order, no duplicates")
    }

    /// A file that stops taking bytes (a file-size limit, EFBIG, like a full disk): successes become 500
    /// InternalServerError, /metrics says so, the file holds only whole lines, and serve exits 3.
    func testUnwritableFileAnswers500CountsInMetricsAndExitsNonZero() async throws {
        let file = dir + "/limited.jsonl"
        let token = try await jwt()
        // 64 blocks of 512 bytes: a few dozen records; SIGXFSZ ignored so writes fail with EFBIG instead of killing.
        let server = try await ServedMock.start(["--h2c", "--port", "0", "--record", file, "--control-port", "0"],
                                                readyFile: dir + "/limited.ready.json",
                                                shellPrefix: "trap '' XFSZ; ulimit -f 64")
        let controlURL = try XCTUnwrap(server.controlURL)
        let sent = try await pushes(200, to: server.apnsURL, jwt: token)
        XCTAssertTrue(sent.contains("0 4xx"), sent)   // 200s until the writer finds the file full, 500s after
        var metrics = ""
        for _ in 0..<200 {
            metrics = try PeerProcess.run("/usr/bin/curl", ["-sS", "\(controlURL)/metrics"]).stdout
            if metrics.contains("\nmockapns_record_file_unwritable 1") { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        XCTAssertTrue(metrics.contains("\nmockapns_record_file_unwritable 1"), metrics)
        XCTAssertTrue(metrics.contains("\nmockapns_record_file_failures_total 1"), metrics)
        let answer = try await push(to: server.apnsURL, jwt: token)
        XCTAssertEqual(answer, #"{"reason":"InternalServerError"} 500"#)

        server.terminate()
        let status = try await waitForExit(server)
        XCTAssertEqual(status, 3, server.process.stderr)
        let stderr = server.process.stderr
        XCTAssertTrue(stderr.contains("answering 500 InternalServerError instead of success"), stderr)
        XCTAssertTrue(stderr.contains("record(s) could not be written to \(file)"), stderr)
        let kept = try records(file)
        XCTAssertGreaterThan(kept.count, 0)
        XCTAssertEqual(kept.map(\.seq), (0..<kept.count).map { UInt64($0) + 1 }, "whole lines, none skipped over")
    }

    /// Pushes in flight while the file is rotated `times` times, by `rotate(number)` from another thread every
    /// `interval`; returns the h2load summary.
    private func pushes(_ count: Int, to url: String, jwt: String, rotatingEvery interval: Duration, times: Int,
                        rotate: @escaping @Sendable (Int) throws -> Void) async throws -> String {
        let failure = Locked<(any Error)?>(nil)
        let done = DispatchSemaphore(value: 0)
        let micros = useconds_t(interval.components.seconds * 1_000_000 + interval.components.attoseconds / 1_000_000_000_000)
        DispatchQueue.global().async {
            defer { done.signal() }
            for number in 1...times {
                usleep(micros)
                do { try rotate(number) } catch {
                    failure.withLock { $0 = error }
                    return
                }
            }
        }
        let summary = try await pushes(count, to: url, jwt: jwt)
        done.wait()
        if let error = failure.withLock({ $0 }) { throw error }
        return summary
    }

    /// The `seq`s across the rotated files (`copies` when they were copied while written) and the live one (each
    /// checked whole, no NUL), sorted.
    private func seqs(_ file: String, rotated: Int, copies: Bool = false) throws -> [UInt64] {
        var all: [UInt64] = []
        for number in 1...rotated where FileManager.default.fileExists(atPath: file + ".\(number)") {
            let part = try records(file + ".\(number)", copiedMidWrite: copies).map(\.seq)
            XCTAssertEqual(part, part.sorted(), "\(file).\(number) in seq order")
            all += part
        }
        let rest = try records(file).map(\.seq)
        XCTAssertEqual(rest, rest.sorted())
        return (all + rest).sorted()
    }

    /// Rename rotation as logrotate does it without copytruncate: `mv`, then SIGHUP, while h2load keeps pushing.
    /// SIGHUP does not stop the server; the files together hold exactly the pushes answered.
    func testRenameRotationWithSIGHUPUnderLoadKeepsEveryRecord() async throws {
        let file = dir + "/rotated.jsonl"
        let token = try await jwt()
        let server = try await ServedMock.start(["--h2c", "--port", "0", "--no-control", "--record", file],
                                                readyFile: dir + "/rename.ready.json")
        let pid = server.pid
        let summary = try await pushes(6_000, to: server.apnsURL, jwt: token, rotatingEvery: .milliseconds(150), times: 3) {
            number in
            guard rename(file, file + ".\(number)") == 0 else { throw CocoaError(.fileNoSuchFile) }
            kill(pid, number == 2 ? SIGUSR1 : SIGHUP)
        }
        XCTAssertTrue(summary.contains("6000 2xx"), summary)
        XCTAssertTrue(server.process.isRunning, "SIGHUP and SIGUSR1 do not stop the server: \(server.process.stderr)")
        server.terminate()
        let status = try await waitForExit(server)
        XCTAssertEqual(status, 0, server.process.stderr)
        XCTAssertTrue(server.process.stderr.contains("reopened the record file \(file)"), server.process.stderr)
        XCTAssertEqual(try seqs(file, rotated: 3), Array(1...6_000), "every answered push once, across the files")
    }

    /// logrotate's copytruncate (copy the file, then cut it to 0 bytes) while h2load keeps pushing: no NUL byte, every
    /// line whole, no record twice, `seq` still growing. What the writer appends between the copy and the cut is lost
    /// by copytruncate's design (logrotate's manual says so); the test checks that anything missing is such a run,
    /// right after the end of a copy.
    func testCopyTruncateUnderLoadLeavesNoNULAndNoDuplicate() async throws {
        let file = dir + "/copied.jsonl"
        let token = try await jwt()
        let server = try await ServedMock.start(["--h2c", "--port", "0", "--no-control", "--record", file],
                                                readyFile: dir + "/copytruncate.ready.json")
        let summary = try await pushes(6_000, to: server.apnsURL, jwt: token, rotatingEvery: .milliseconds(150), times: 3) {
            number in
            let data = try Data(contentsOf: URL(fileURLWithPath: file))
            try data.write(to: URL(fileURLWithPath: file + ".\(number)"))
            guard truncate(file, 0) == 0 else { throw CocoaError(.fileWriteUnknown) }
        }
        XCTAssertTrue(summary.contains("6000 2xx"), summary)
        server.terminate()
        let status = try await waitForExit(server)
        XCTAssertEqual(status, 0, server.process.stderr)
        let all = try seqs(file, rotated: 3, copies: true)
        XCTAssertEqual(Set(all).count, all.count, "no record twice")
        let copyEnds = try (1...3).compactMap { try records(file + ".\($0)", copiedMidWrite: true).last?.seq }
        let missing = Set(1...UInt64(6_000)).subtracting(all).sorted()
        // Each missing run starts right after the last record of a copy (the copy-to-cut window).
        var index = 0
        while index < missing.count {
            let start = missing[index]
            XCTAssertTrue(copyEnds.contains(start - 1), "seq \(start) missing but not at a copy's end \(copyEnds)")
            while index + 1 < missing.count && missing[index + 1] == missing[index] + 1 { index += 1 }
            index += 1
        }
    }
}
