import Foundation
import TestSupport
import XCTest

/// The leak check every server-starting suite runs after each test (``LeftBehind``, through ``LeakCheckedTestCase``):
/// it names a child process left running (pid and command line) and a listening socket left open (address and port),
/// and lets pass what stops within its grace. Each test leaks on purpose, checks what the checker says, then stops
/// what it started before its own check runs.
final class LeakCheckTests: LeakCheckedTestCase {
    func testAChildProcessLeftRunningIsNamedWithItsCommandLine() throws {
        try XCTSkipUnless(Self.procAvailable, "the check reads /proc")
        let before = LeftBehind.snapshot()
        let sleeper = try PeerProcess.start("sleep", ["37"])
        let reported = LeftBehind.check(since: before, grace: 0.2) { _ in }
        sleeper.terminate()
        XCTAssertEqual(reported.count, 1, "\(reported)")
        let line = reported.first ?? ""
        XCTAssertTrue(line.hasPrefix("child process "), line)
        XCTAssertTrue(line.hasSuffix("(/usr/bin/sleep 37)") || line.hasSuffix("(/bin/sleep 37)"), line)
    }

    func testAListeningSocketLeftOpenIsNamedWithItsPort() throws {
        try XCTSkipUnless(Self.procAvailable, "the check reads /proc")
        let before = LeftBehind.snapshot()
        let (fd, port) = try Self.listening()
        let reported = LeftBehind.check(since: before, grace: 0.2) { _ in }
        close(fd)
        XCTAssertEqual(reported, ["listening socket 127.0.0.1:\(port)"])
    }

    func testWhatStopsWithinTheGraceIsNotReported() throws {
        try XCTSkipUnless(Self.procAvailable, "the check reads /proc")
        let before = LeftBehind.snapshot()
        // Both end a moment after the check starts, as a server's listener closes on its loop after stop() returns.
        let sleeper = try PeerProcess.start("sleep", ["0.5"])
        let (fd, _) = try Self.listening()
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.3) { close(fd) }
        var reports: [String] = []
        let reported = LeftBehind.check(since: before, grace: 5) { reports.append($0) }
        XCTAssertEqual(reported, [])
        XCTAssertEqual(reports, [])
        _ = sleeper.wait(timeout: 5)
    }

    func testAConnectedSocketAndAnExitedChildAreNotLeftovers() throws {
        try XCTSkipUnless(Self.procAvailable, "the check reads /proc")
        let (listener, port) = try Self.listening()
        defer { close(listener) }
        let before = LeftBehind.snapshot()
        let connection = try XCTUnwrap(LoopbackConnection(port: port))
        _ = try PeerProcess.run("true", [])
        XCTAssertEqual(LeftBehind.check(since: before, grace: 0) { _ in }, [], "only listeners and running children count")
        connection.close()
    }

    private static var procAvailable: Bool {
        FileManager.default.fileExists(atPath: "/proc/self/fd") && FileManager.default.fileExists(atPath: "/proc/net/tcp")
    }

    /// A socket listening on 127.0.0.1, on a port the kernel picks: its descriptor and port.
    private static func listening() throws -> (Int32, Int) {
        let fd = socket(AF_INET, LoopbackConnection.streamType, 0)
        guard fd >= 0 else { throw PeerProcess.PeerError.system("socket() failed") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard bound, listen(fd, 1) == 0 else {
            close(fd)
            throw PeerProcess.PeerError.system("bind() or listen() failed")
        }
        return (fd, Int(UInt16(bigEndian: address.sin_port)))
    }
}
