import Foundation
import HTTP2
import XCTest

/// The attack classes the server survives, each followed by a normal request, with the process's resident
/// memory checked against a generous bound (an attack that made the server buffer what it receives would
/// pass it by far). The server runs in the test process, so its VmRSS is this process's.
final class ServerAttackTests: ServerTestCase {
    /// Resident memory of this process, in bytes (VmRSS from /proc/self/status).
    private func residentBytes() throws -> Int {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let line = try XCTUnwrap(status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") })
        let kilobytes = try XCTUnwrap(Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]))
        return kilobytes * 1024
    }

    /// Runs the Python `attack` scenario against a fresh server (h2c unless `tls`), then checks the server still
    /// answers and that resident memory grew by less than `bound` bytes.
    private func assertSurvives(
        _ scenario: String, rounds: Int, tls: Bool = false, bound: Int = 150 << 20,
        configure: (inout HTTP2ServerConfiguration) -> Void = { _ in }, file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let (server, _) = try startServer(tls: tls, configure: configure)
        try assertStillServes(server, tls: tls, file: file, line: line)
        let before = try residentBytes()
        let result = try PythonH2.run(mode: "attack", port: server.localPort, ca: tls ? pki.caPath : nil,
                                      extra: [scenario, String(rounds)], timeout: 300)
        XCTAssertTrue(result.stdout.hasPrefix("sent"), "\(scenario): \(result.stdout) \(result.stderr)", file: file, line: line)
        let grown = try residentBytes() - before
        XCTAssertLessThan(grown, bound, "\(scenario): resident memory grew by \(grown >> 20) MiB", file: file, line: line)
        try assertStillServes(server, tls: tls, file: file, line: line)
        XCTAssertTrue(waitUntil(timeout: 10) { server.openConnectionCount == 0 }, "\(scenario): the attacking connection stayed open",
                      file: file, line: line)
    }

    /// Streams opened and reset at once, 20 000 of them (CVE-2023-44487).
    func testRapidReset() throws {
        try assertSurvives("rapid-reset", rounds: 200)
    }

    /// A header block that never ends: 20 000 CONTINUATION frames of 12 KiB (240 MiB) on one stream.
    func testContinuationFlood() throws {
        try assertSurvives("continuation", rounds: 20_000)
    }

    /// 200 header blocks that each expand to 64 MB through one dynamic-table entry.
    func testHPACKBomb() throws {
        try assertSurvives("hpack-bomb", rounds: 200)
    }

    /// 100 000 SETTINGS frames, none of the ACKs read.
    func testSettingsFlood() throws {
        try assertSurvives("settings-flood", rounds: 100, tls: true)
    }

    /// 100 000 PING frames, none of the ACKs read.
    func testPingFlood() throws {
        try assertSurvives("ping-flood", rounds: 100, tls: true)
    }

    /// Flow-control windows at zero while asking for 1 MiB answers: at most MAX_CONCURRENT_STREAMS of them are
    /// held, the rest refused.
    func testZeroWindowStall() throws {
        try assertSurvives("zero-window", rounds: 40, configure: { $0.maxConcurrentStreams = 20 })
    }

    /// 2 000 connections opened, used once and dropped (half of them before the answer).
    func testConnectionChurn() throws {
        let (server, _) = try startServer(tls: false)
        try assertStillServes(server, tls: false)
        let before = try residentBytes()
        let result = try PythonH2.run(mode: "churn", port: server.localPort, ca: nil, extra: ["2000"], timeout: 300)
        XCTAssertEqual(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "answered=1000", result.stderr)
        XCTAssertTrue(waitUntil(timeout: 10) { server.openConnectionCount == 0 }, "connections were left open")
        let grown = try residentBytes() - before
        XCTAssertLessThan(grown, 150 << 20, "resident memory grew by \(grown >> 20) MiB")
        try assertStillServes(server, tls: false)
    }
}
