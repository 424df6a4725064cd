import Foundation
import TestSupport
import XCTest

/// A long-running `mockapns` (e.g. `tail`) whose output a test reads while it runs. Its output goes to files, read
/// as they grow: a pipe read through Foundation's readability handler now and then loses its last chunk on Linux.
final class InspectFollowProcess: Sendable {
    private let process = Process()
    private let folder: URL
    private let out: URL
    private let err: URL
    private let handles: [FileHandle]

    /// Starts `mockapns arguments…`. `environment` entries are added to (or, with a nil value, removed from) the test
    /// process's environment; with a `shellPrefix`, the binary is started by `/bin/sh -c 'shellPrefix && exec …'` (for
    /// `ulimit` or `trap`), which keeps the process id.
    init(_ arguments: [String], environment: [String: String?] = [:], shellPrefix: String? = nil) throws {
        folder = URL(fileURLWithPath: try TestDirectory.make("mockapns-follow"))
        out = folder.appendingPathComponent("stdout")
        err = folder.appendingPathComponent("stderr")
        guard FileManager.default.createFile(atPath: out.path, contents: nil),
              FileManager.default.createFile(atPath: err.path, contents: nil) else { throw CocoaError(.fileWriteUnknown) }
        handles = [try FileHandle(forWritingTo: out), try FileHandle(forWritingTo: err)]
        if !environment.isEmpty {
            var merged = ProcessInfo.processInfo.environment
            for (name, value) in environment { merged[name] = value }
            process.environment = merged
        }
        if let shellPrefix {
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", shellPrefix + #" && exec "$0" "$@""#, try InspectCLI.binary.path] + arguments
        } else {
            process.executableURL = try InspectCLI.binary
            process.arguments = arguments
        }
        process.standardOutput = handles[0]
        process.standardError = handles[1]
        process.standardInput = FileHandle.nullDevice
        try process.run()
    }

    deinit {
        if process.isRunning { Foundation.kill(process.processIdentifier, SIGKILL) }
        for handle in handles { try? handle.close() }
        try? FileManager.default.removeItem(at: folder)
    }

    /// The process id (for `mockapns wait --pid`).
    var pid: Int32 { process.processIdentifier }

    /// Whether it still runs.
    var isRunning: Bool { process.isRunning }

    /// What it wrote to standard output so far.
    var stdout: String { (try? String(contentsOf: out, encoding: .utf8)) ?? "" }
    /// What it wrote to standard error so far.
    var stderr: String { (try? String(contentsOf: err, encoding: .utf8)) ?? "" }

    /// Waits until standard output has `count` lines satisfying `predicate`; returns the output.
    @discardableResult
    func waitForLines(_ count: Int, timeout: Duration = .seconds(15), where predicate: (Substring) -> Bool = { _ in true }) async throws -> String {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let text = stdout
            if text.split(separator: "\n").filter(predicate).count >= count { return text }
            try await Task.sleep(for: .milliseconds(20))
        }
        let text = stdout
        XCTFail("wanted \(count) lines within \(timeout); output so far: \(text); errors: \(stderr)")
        return text
    }

    /// For a follower that prints only what arrives after it subscribed (`tail` without `--since`): runs `probe`
    /// (which makes one new record) every `interval` until a line containing `marker` is printed, so what a test sends
    /// next reaches a follower that has started, however slowly the process came up. Returns the output.
    @discardableResult
    func waitUntilFollowing(marker: String, every interval: Duration = .milliseconds(100), attempts: Int = 100,
                            probe: (Int) async throws -> Void) async throws -> String {
        for attempt in 0..<attempts {
            try await probe(attempt)
            if stdout.contains(marker) { break }
            try await Task.sleep(for: interval)
        }
        return try await waitForLines(1) { $0.contains(marker) }
    }

    /// Waits for the process to exit by itself; its result (all it wrote), or nil after `timeout`.
    func waitForExit(timeout: Duration = .seconds(15)) async throws -> InspectCLI.Result? {
        let deadline = ContinuousClock.now + timeout
        while process.isRunning {
            if ContinuousClock.now > deadline { return nil }
            try await Task.sleep(for: .milliseconds(20))
        }
        process.waitUntilExit()
        return InspectCLI.Result(status: process.terminationStatus, stdout: stdout, stderr: stderr)
    }

    /// Kills it (SIGKILL) if it still runs: a crash, with no chance to flush or close anything.
    func kill() {
        if process.isRunning { Foundation.kill(process.processIdentifier, SIGKILL) }
    }

    /// Terminates it (SIGTERM) if it still runs, as a service manager or `docker stop` would.
    func terminate() {
        if process.isRunning { process.terminate() }
    }

    /// Interrupts it (SIGINT) if it still runs, as a person's ^C would.
    func stop() {
        if process.isRunning { process.interrupt() }
    }
}
