import Foundation
import TestSupport
import XCTest

/// Runs `curl -sN URL` and reads its output lines as they arrive (for server-sent events). Output goes to a file,
/// read as it grows: a pipe read through Foundation's readability handler now and then loses its last chunk on Linux.
final class CurlStream: Sendable {
    private let process = Process()
    private let folder: URL
    private let out: URL
    private let handle: FileHandle

    /// Starts curl on `url` with extra `arguments`.
    init(url: String, arguments: [String] = []) throws {
        folder = URL(fileURLWithPath: try TestDirectory.make("curl-stream"))
        out = folder.appendingPathComponent("stdout")
        guard FileManager.default.createFile(atPath: out.path, contents: nil) else { throw CocoaError(.fileWriteUnknown) }
        handle = try FileHandle(forWritingTo: out)
        process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        process.arguments = ["-sN", "--max-time", "30"] + arguments + [url]
        process.standardOutput = handle
        process.standardError = FileHandle.nullDevice
        try process.run()
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        try? handle.close()
        try? FileManager.default.removeItem(at: folder)
    }

    /// The complete lines written so far (a last line without its newline is not complete yet).
    private var lines: [String] {
        let text = (try? String(contentsOf: out, encoding: .utf8)) ?? ""
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        lines.removeLast()   // after the last newline: empty, or a line still being written
        return lines
    }

    /// Waits (up to `timeout`) until some line satisfies `predicate`; returns the lines so far.
    func waitForLine(timeout: Duration = .seconds(10), where predicate: (String) -> Bool) async throws -> [String] {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let snapshot = lines
            if snapshot.contains(where: predicate) { return snapshot }
            try await Task.sleep(for: .milliseconds(20))
        }
        let snapshot = lines
        XCTFail("no matching line within \(timeout); got: \(snapshot)")
        return snapshot
    }

    /// Waits (up to `timeout`) for curl to exit by itself; true when it did.
    func waitForExit(timeout: Duration = .seconds(10)) async throws -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if !process.isRunning { return true }
            try await Task.sleep(for: .milliseconds(20))
        }
        return false
    }

    /// Ends curl if it still runs.
    func terminate() {
        if process.isRunning { process.terminate() }
    }
}
