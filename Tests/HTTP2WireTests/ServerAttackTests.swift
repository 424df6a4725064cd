import Foundation
import PeerSupport
import HTTP2
import HTTP2TestSupport
import XCTest

/// The attack classes the server survives, each followed by a normal request, with the process's resident
/// memory checked against a generous bound (an attack that made the server buffer what it receives would
/// pass it by far). The server runs in the test process, so its memory is this process's: the peak (VmHWM,
/// reset through /proc/self/clear_refs before the attack) minus the resident size before it.
final class ServerAttackTests: ServerTestCase {
    /// A figure of /proc/self/status in bytes: `VmRSS` (resident now) or `VmHWM` (peak resident).
    private func memory(_ field: String) throws -> Int {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let line = try XCTUnwrap(status.split(separator: "\n").first { $0.hasPrefix(field + ":") })
        let kilobytes = try XCTUnwrap(Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]))
        return kilobytes * 1024
    }

    /// Resets the peak (`VmHWM`) to the current resident size, so the peak read afterwards is this attack's.
    private func resetPeakMemory() throws {
        try "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
    }

    /// Runs the Python `attack` scenario against a fresh server (h2c unless `tls`), then checks the server still
    /// answers and that resident memory grew by less than `bound` bytes.
    private func assertSurvives(
        _ scenario: String, rounds: Int, tls: Bool = false, bound: Int = 32 << 20,
        configure: (inout HTTP2ServerConfiguration) -> Void = { _ in }, file: StaticString = #filePath, line: UInt = #line
    ) async throws {
        let (server, _) = try await startServer(tls: tls, configure: configure)
        try assertStillServes(server, tls: tls, file: file, line: line)
        try resetPeakMemory()
        let before = try memory("VmRSS")
        let result = try PythonH2.run(mode: "attack", port: server.localPort, ca: tls ? pki.caPath : nil,
                                      extra: [scenario, String(rounds)], timeout: 300)
        XCTAssertTrue(result.stdout.hasPrefix("sent"), "\(scenario): \(result.stdout) \(result.stderr)", file: file, line: line)
        let grown = try memory("VmHWM") - before
        XCTAssertLessThan(grown, bound, "\(scenario): peak resident memory grew by \(grown >> 20) MiB", file: file, line: line)
        try assertStillServes(server, tls: tls, file: file, line: line)
        XCTAssertTrue(Poll.blockingUntil { server.openConnectionCount == 0 }, "\(scenario): the attacking connection stayed open",
                      file: file, line: line)
    }

    /// Streams opened and reset at once, 20 000 of them (CVE-2023-44487).
    func testRapidReset() async throws {
        try await assertSurvives("rapid-reset", rounds: 200)
    }

    /// A header block that never ends: 20 000 CONTINUATION frames of 12 KiB (240 MiB) on one stream.
    func testContinuationFlood() async throws {
        try await assertSurvives("continuation", rounds: 20_000)
    }

    /// 200 header blocks that each expand to 64 MB through one dynamic-table entry.
    func testHPACKBomb() async throws {
        try await assertSurvives("hpack-bomb", rounds: 200)
    }

    /// 300 000 SETTINGS frames, none of the ACKs read. Back-pressure stops reading from a peer that does not read,
    /// so the ACKs never pile up (without it they took ~11 MiB here, hence the tighter bound).
    func testSettingsFlood() async throws {
        try await assertSurvives("settings-flood", rounds: 300, tls: true, bound: 8 << 20)
    }

    /// 300 000 PING frames, none of the ACKs read (bounded like the SETTINGS flood).
    func testPingFlood() async throws {
        try await assertSurvives("ping-flood", rounds: 300, tls: true, bound: 8 << 20)
    }

    /// Flow-control windows at zero while asking for 1 MiB answers: at most MAX_CONCURRENT_STREAMS of them are
    /// held, the rest refused.
    func testZeroWindowStall() async throws {
        try await assertSurvives("zero-window", rounds: 40, bound: 96 << 20, configure: { $0.maxConcurrentStreams = 20 })
    }

    /// 2 000 connections opened, used once and dropped (half of them before the answer).
    func testConnectionChurn() async throws {
        let (server, _) = try await startServer(tls: false)
        try assertStillServes(server, tls: false)
        try resetPeakMemory()
        let before = try memory("VmRSS")
        let result = try PythonH2.run(mode: "churn", port: server.localPort, ca: nil, extra: ["2000"], timeout: 300)
        XCTAssertEqual(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "answered=1000", result.stderr)
        XCTAssertTrue(Poll.blockingUntil { server.openConnectionCount == 0 }, "connections were left open")
        let grown = try memory("VmHWM") - before
        XCTAssertLessThan(grown, 32 << 20, "peak resident memory grew by \(grown >> 20) MiB")
        try assertStillServes(server, tls: false)
    }
}
