import APNsModel
import Foundation
import MockAPNs
import PeerSupport
import XCTest

/// The recording contract with a real `mockapns serve`: `kill -9` then a restart on the same `--record` file
/// (torn tail trimmed, `seq` continued), and a file that stops taking writes (500 instead of 200, `/metrics`,
/// whole lines only, exit status 3).
final class RecordFileContractTests: XCTestCase {
    private static let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path
    private var dir: String!

    override func setUpWithError() throws {
        dir = NSTemporaryDirectory() + "record-contract-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: dir)
    }

    /// A running `mockapns serve --h2c` and where to reach it.
    private struct Serve {
        let process: Process
        let stderrPath: String
        let apnsURL: String
        let controlURL: String?

        var stderr: String { (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }
    }

    /// Starts `mockapns serve --h2c --port 0 extra…` (through `/bin/sh -c shellPrefix` when given) and waits for its
    /// ready file.
    private func serve(_ extra: [String], shellPrefix: String? = nil, name: String) async throws -> Serve {
        let ready = dir + "/\(name).ready.json"
        let stderrPath = dir + "/\(name).stderr"
        _ = FileManager.default.createFile(atPath: stderrPath, contents: nil)
        let process = Process()
        let binary = try InspectCLI.binary.path
        let arguments = ["serve", "--h2c", "--port", "0", "--ready-file", ready] + extra
        if let shellPrefix {
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", shellPrefix + "; exec \"$0\" \"$@\"", binary] + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: binary)
            process.arguments = arguments
        }
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: stderrPath))
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        for _ in 0..<400 {
            if let data = FileManager.default.contents(atPath: ready), let json = try? JSONValue.parse(Array(data)),
               let url = json["apns_url"]?.stringValue {
                return Serve(process: process, stderrPath: stderrPath, apnsURL: url, controlURL: json["control_url"]?.stringValue)
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        process.terminate()
        throw NotReady(stderr: (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "")
    }

    private struct NotReady: Error, CustomStringConvertible {
        let stderr: String
        var description: String { "mockapns serve never wrote its ready file: \(stderr)" }
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

    private func records(_ path: String) throws -> [RecordedRequest] {
        let data = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        XCTAssertTrue(data.isEmpty || data.last == UInt8(ascii: "\n"), "the file ends with a whole line")
        XCTAssertFalse(data.contains(0), "no NUL hole")
        return try data.split(separator: UInt8(ascii: "\n")).map { try RecordedRequest(jsonLine: Array($0)) }
    }

    private func waitForExit(_ process: Process) async throws {
        for _ in 0..<600 where process.isRunning { try await Task.sleep(for: .milliseconds(50)) }
        XCTAssertFalse(process.isRunning, "serve did not stop")
    }

    func testKillNineThenRestartTrimsTheTornTailAndContinuesSeq() async throws {
        let file = dir + "/rec.jsonl"
        let token = try await jwt()
        let first = try await serve(["--no-control", "--record", file], name: "first")
        let firstRun = try await pushes(200, to: first.apnsURL, jwt: token)
        XCTAssertTrue(firstRun.contains("200 2xx"), firstRun)
        // Give the writer its flush interval: what is answered in the last one is what kill -9 may lose.
        try await Task.sleep(for: .milliseconds(500))
        kill(first.process.processIdentifier, SIGKILL)
        try await waitForExit(first.process)
        let before = try records(file)
        XCTAssertEqual(before.map(\.seq), Array(1...UInt64(before.count)))
        XCTAssertEqual(before.count, 200, "answered more than a flush interval before the kill, so all written")
        // What a crash in the middle of a write leaves: part of a line.
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: file))
        handle.seekToEndOfFile()
        handle.write(Data(#"{"seq":999999,"received_at":"2026-"#.utf8))
        try handle.close()

        let second = try await serve(["--no-control", "--record", file], name: "second")
        let secondRun = try await pushes(50, to: second.apnsURL, jwt: token)
        XCTAssertTrue(secondRun.contains("50 2xx"), secondRun)
        second.process.terminate()
        try await waitForExit(second.process)
        XCTAssertEqual(second.process.terminationStatus, 0, second.stderr)
        XCTAssertTrue(second.stderr.contains("ended in a torn line (34 bytes"), second.stderr)
        XCTAssertTrue(second.stderr.contains("continuing \(file) after seq 200"), second.stderr)
        let after = try records(file)
        XCTAssertEqual(after.map(\.seq), Array(1...250), "every line whole, seq continued, in order, no duplicates")
    }

    /// A file that stops taking bytes (a file-size limit, EFBIG, like a full disk): successes become 500
    /// InternalServerError, /metrics says so, the file holds only whole lines, and serve exits 3.
    func testUnwritableFileAnswers500CountsInMetricsAndExitsNonZero() async throws {
        let file = dir + "/limited.jsonl"
        let token = try await jwt()
        // 64 blocks of 512 bytes: a few dozen records; SIGXFSZ ignored so writes fail with EFBIG instead of killing.
        let server = try await serve(["--record", file, "--control-port", "0"],
                                     shellPrefix: "trap '' XFSZ; ulimit -f 64", name: "limited")
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

        server.process.terminate()
        try await waitForExit(server.process)
        XCTAssertEqual(server.process.terminationStatus, 3, server.stderr)
        let stderr = server.stderr
        XCTAssertTrue(stderr.contains("answering 500 InternalServerError instead of success"), stderr)
        XCTAssertTrue(stderr.contains("record(s) could not be written to \(file)"), stderr)
        let kept = try records(file)
        XCTAssertGreaterThan(kept.count, 0)
        XCTAssertEqual(kept.map(\.seq), (0..<kept.count).map { UInt64($0) + 1 }, "whole lines, none skipped over")
    }
}
