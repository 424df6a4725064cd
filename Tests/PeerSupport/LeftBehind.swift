import Foundation
import XCTest

/// What a test may not leave behind when it ends: a child process of this one still running, or a TCP socket of this
/// process still listening. Read from `/proc` (Linux only; elsewhere every snapshot is empty and nothing is checked).
///
/// ``LeakCheckedTestCase`` takes a ``snapshot()`` before each test and, once its teardown blocks and `tearDown`
/// methods have run, fails the test for anything new that is still there after a grace period (a server's listener
/// closes on its loop a moment after `stop()` returns; a stopped process takes a moment to exit).
public enum LeftBehind {
    /// This process's children and listening sockets at one moment.
    public struct Snapshot: Sendable {
        /// Running (not zombie) child processes: pid → command line.
        public var children: [Int32: String] = [:]
        /// Listening TCP sockets this process holds: socket inode → "127.0.0.1:port".
        public var listeners: [UInt64: String] = [:]
    }

    /// Processes kept on purpose across the tests of a class (started in `class func setUp`, or restarted by a fixture
    /// that outlives a test, and stopped in `class func tearDown`): never reported.
    private static let kept = NSLock()
    nonisolated(unsafe) private static var keptPIDs: Set<Int32> = []

    /// Marks `pid` as a process a fixture keeps across tests and stops itself (``forget(pid:)`` when it does).
    public static func keep(pid: Int32) {
        kept.lock()
        defer { kept.unlock() }
        keptPIDs.insert(pid)
    }

    /// Undoes ``keep(pid:)``.
    public static func forget(pid: Int32) {
        kept.lock()
        defer { kept.unlock() }
        keptPIDs.remove(pid)
    }

    /// The children and listening sockets of this process now.
    public static func snapshot() -> Snapshot {
        #if os(Linux)
        kept.lock()
        let keptNow = keptPIDs
        kept.unlock()
        return Snapshot(children: children().filter { !keptNow.contains($0.key) }, listeners: listeners())
        #else
        return Snapshot()
        #endif
    }

    /// What is in `now` and was not in `before`, one line each: "child process 1234 (python3 h2_requests.py)" or
    /// "listening socket 127.0.0.1:40123".
    public static func new(in now: Snapshot, since before: Snapshot) -> [String] {
        let processes = now.children.keys.filter { before.children[$0] == nil }.sorted()
            .map { "child process \($0) (\(now.children[$0] ?? ""))" }
        let sockets = now.listeners.keys.filter { before.listeners[$0] == nil }.sorted()
            .map { "listening socket \(now.listeners[$0] ?? "")" }
        return processes + sockets
    }

    /// What has appeared since `before` and is still there, polled every 50 ms for up to `grace` seconds until
    /// nothing is; each item is passed to `report`. Returns the items.
    @discardableResult
    public static func check(since before: Snapshot, grace: TimeInterval = 2, report: (String) -> Void) -> [String] {
        let deadline = Date().addingTimeInterval(grace)
        var left = new(in: snapshot(), since: before)
        while !left.isEmpty && Date() < deadline {
            usleep(50_000)
            left = new(in: snapshot(), since: before)
        }
        left.forEach(report)
        return left
    }

    #if os(Linux)
    /// Every process whose parent is this one and that has not exited: a scan of `/proc/<pid>/stat` (the kernel here
    /// may lack `/proc/self/task/*/children`).
    static func children() -> [Int32: String] {
        let me = getpid()
        var found: [Int32: String] = [:]
        for name in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let pid = Int32(name), pid != me,
                  let stat = try? String(contentsOfFile: "/proc/\(name)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { continue }
            // After "pid (comm) ": state, ppid, …
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 1, fields[0] != "Z", fields[0] != "X", Int32(fields[1]) == me else { continue }
            let argv = (try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(name)/cmdline"))) ?? Data()
            let command = String(decoding: argv, as: UTF8.self).split(separator: "\0").joined(separator: " ")
            found[pid] = command.isEmpty ? String(stat[stat.startIndex..<close].drop { $0 != "(" }.dropFirst()) : command
        }
        return found
    }

    /// The TCP sockets in state LISTEN (`0A`) in `/proc/net/tcp{,6}` whose inode is one of this process's descriptors.
    static func listeners() -> [UInt64: String] {
        var mine: Set<UInt64> = []
        for fd in (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? [] {
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(fd)"),
                  target.hasPrefix("socket:["), let inode = UInt64(target.dropFirst(8).dropLast()) else { continue }
            mine.insert(inode)
        }
        guard !mine.isEmpty else { return [:] }
        var found: [UInt64: String] = [:]
        for table in ["/proc/net/tcp", "/proc/net/tcp6"] {
            guard let text = try? String(contentsOfFile: table, encoding: .utf8) else { continue }
            for line in text.split(separator: "\n").dropFirst() {
                // sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode …
                let fields = line.split(separator: " ")
                guard fields.count > 9, fields[3] == "0A", let inode = UInt64(fields[9]), mine.contains(inode) else { continue }
                found[inode] = address(fields[1])
            }
        }
        return found
    }

    /// "0100007F:9C4B" → "127.0.0.1:40011"; an IPv6 address is shown as "[v6]:port".
    private static func address(_ field: Substring) -> String {
        let parts = field.split(separator: ":")
        let port = parts.count == 2 ? Int(parts[1], radix: 16).map(String.init) ?? String(parts[1]) : "?"
        guard let hex = parts.first, hex.count == 8, let raw = UInt32(hex, radix: 16) else { return "[v6]:\(port)" }
        // /proc prints the address as a native-endian word; on the little-endian machines this runs on, byte 0 first.
        let bytes = [raw & 0xFF, (raw >> 8) & 0xFF, (raw >> 16) & 0xFF, raw >> 24]
        return bytes.map(String.init).joined(separator: ".") + ":\(port)"
    }
    #endif
}

/// The base class of every test class in a target whose tests start servers or processes: a test that leaves a
/// child process running or a listening socket open after its teardown fails, naming what it left
/// (``LeftBehind``). Stop what a test starts in `addTeardownBlock` (or `defer`) right after starting it.
open class LeakCheckedTestCase: XCTestCase {
    /// Runs setUp, the test and its teardown (teardown blocks, then the `tearDown` methods), then the check: this is
    /// the last point at which a failure still counts against the test on both XCTest implementations.
    override open func invokeTest() {
        let before = LeftBehind.snapshot()
        super.invokeTest()
        LeftBehind.check(since: before) { XCTFail("the test left behind a \($0): stop it in addTeardownBlock") }
    }
}
