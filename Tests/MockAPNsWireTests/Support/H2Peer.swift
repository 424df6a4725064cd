import Foundation
import Support
import TestSupport
import XCTest

/// The one `Tests/Peers/h2_requests.py --serve` process that ``H2Requests`` sends its specs to: a spec line in on its
/// stdin, an outcome line back (after a `{"ready": i}` line and an answer per request in stepped mode), so a suite
/// starts one Python interpreter, not one per exchange.
///
/// A test class that sends through it inherits ``H2PeerTestCase``, which starts it before the class's first test and
/// stops it after the last. Used outside such a class, it starts on first use. A spec that makes the peer raise is
/// that exchange's error (the peer goes on to the next); a peer that died or did not answer in time is stopped, and
/// the next exchange starts a new one.
final class H2Peer {
    /// The running peer, if any; its lock also keeps exchanges one at a time.
    private static let current = Locked<H2Peer?>(nil)

    /// Starts the peer now, if it is not running (a class's `setUp`).
    static func start() throws {
        try current.withLock { peer in
            if let running = peer, running.process.isRunning { return }
            peer?.stop()
            peer = try H2Peer()
        }
    }

    /// Stops the peer, if it is running (a class's `tearDown`).
    static func stop() {
        current.withLock { peer in
            peer?.stop()
            peer = nil
        }
    }

    /// Sends `spec` (one JSON object) and returns the outcome line, calling `beforeEach(i)` for each `{"ready": i}`
    /// the peer prints first (stepped mode) and answering it.
    static func exchange(_ spec: Data, beforeEach: (Int) -> Void) throws -> String {
        try current.withLock { peer in
            if peer.map({ !$0.process.isRunning }) ?? true {
                peer?.stop()
                peer = try H2Peer()
            }
            let running = peer!
            do {
                return try running.exchange(spec, beforeEach: beforeEach)
            } catch let error as Broken {
                // Dead or stuck: the next exchange starts afresh.
                running.stop()
                peer = nil
                throw H2Requests.failure(error.description)
            }
        }
    }

    /// The peer died, stopped answering or printed what is not an answer: it cannot be used again.
    private struct Broken: Error, CustomStringConvertible {
        var description: String
    }

    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private let folder: String
    private var stderrPath: String { folder + "/stderr" }
    /// Bytes read from stdout after the last full line.
    private var pending: [UInt8] = []
    /// How long one line may take: a whole exchange took up to this long as a process of its own.
    private let lineTimeout: TimeInterval = 120

    private init() throws {
        signal(SIGPIPE, SIG_IGN)   // a write to a peer that just died is EPIPE, not the end of the test process
        folder = try TestDirectory.make("h2-peer")
        _ = FileManager.default.createFile(atPath: folder + "/stderr", contents: nil)
        process.executableURL = URL(fileURLWithPath: RepoPaths.python)
        process.arguments = ["-u", RepoPaths.peers + "/h2_requests.py", "--serve"]
        process.standardInput = input
        process.standardOutput = output
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: folder + "/stderr"))
        try process.run()
        // Kept across a class's tests and stopped in its tearDown: not a test's leftover.
        LeftBehind.keep(pid: process.processIdentifier)
    }

    private func exchange(_ spec: Data, beforeEach: (Int) -> Void) throws -> String {
        try send(Array(spec) + [0x0A])
        while true {
            let line = try nextLine()
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
                throw Broken(description: "not JSON: \(line)\n\(stderrText())")
            }
            if let index = object["ready"] as? Int {
                beforeEach(index)
                try send([0x0A])
            } else if let error = object["peer_error"] as? String {
                throw H2Requests.failure(error)
            } else {
                return line
            }
        }
    }

    private func send(_ bytes: [UInt8]) throws {
        let fd = input.fileHandleForWriting.fileDescriptor
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { throw Broken(description: "its stdin is closed (errno \(errno))\n\(stderrText())") }
            offset += written
        }
    }

    /// The next line of stdout, waiting up to `lineTimeout`.
    private func nextLine() throws -> String {
        let fd = output.fileHandleForReading.fileDescriptor
        let deadline = Date().addingTimeInterval(lineTimeout)
        while true {
            if let newline = pending.firstIndex(of: 0x0A) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                return line
            }
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { throw Broken(description: "no answer in \(Int(lineTimeout)) s\n\(stderrText())") }
            var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, Int32(min(left, 1) * 1000))
            if ready < 0 && errno != EINTR { throw Broken(description: "poll failed (errno \(errno))") }
            guard ready > 0 else {
                if !process.isRunning && pending.firstIndex(of: 0x0A) == nil {
                    throw Broken(description: "it exited (status \(process.terminationStatus))\n\(stderrText())")
                }
                continue
            }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw Broken(description: "it exited\n\(stderrText())") }
            pending += chunk[..<count]
        }
    }

    private func stderrText() -> String {
        (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? ""
    }

    /// Closes its stdin (it exits at the end of input), then SIGTERM and SIGKILL if it lingers.
    private func stop() {
        try? input.fileHandleForWriting.close()
        let deadline = Date().addingTimeInterval(2)
        while process.isRunning && Date() < deadline { usleep(5_000) }
        if process.isRunning { process.terminate() }
        let killAt = Date().addingTimeInterval(2)
        while process.isRunning && Date() < killAt { usleep(5_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        try? output.fileHandleForReading.close()
        LeftBehind.forget(pid: process.processIdentifier)
        try? FileManager.default.removeItem(atPath: folder)
    }
}

/// A test class whose tests send through ``H2Requests``: the peer process is started before its first test and
/// stopped after its last.
class H2PeerTestCase: LeakCheckedTestCase {
    override class func setUp() {
        super.setUp()
        // A peer that cannot start is said by the first exchange, which tries again.
        try? H2Peer.start()
    }

    override class func tearDown() {
        H2Peer.stop()
        super.tearDown()
    }
}
