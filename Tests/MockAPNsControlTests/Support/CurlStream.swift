import Foundation
import Synchronization
import XCTest

/// Runs `curl -sN URL` and collects its output lines as they arrive (for server-sent events).
final class CurlStream: Sendable {
    private let process = Process()
    private let lines = Mutex<(complete: [String], partial: [UInt8], ended: Bool)>(([], [], false))

    /// Starts curl on `url` with extra `arguments`.
    init(url: String, arguments: [String] = []) throws {
        let output = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        process.arguments = ["-sN", "--max-time", "30"] + arguments + [url]
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        let handle = output.fileHandleForReading
        handle.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            guard let self else { return }
            self.lines.withLock { state in
                if data.isEmpty {
                    state.ended = true
                    handle.readabilityHandler = nil
                    return
                }
                state.partial.append(contentsOf: data)
                while let newline = state.partial.firstIndex(of: UInt8(ascii: "\n")) {
                    state.complete.append(String(decoding: state.partial[..<newline], as: UTF8.self))
                    state.partial.removeFirst(newline + 1)
                }
            }
        }
        try process.run()
    }

    /// Waits (up to `timeout`) until some line satisfies `predicate`; returns the lines so far.
    func waitForLine(timeout: Duration = .seconds(10), where predicate: (String) -> Bool) async throws -> [String] {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let snapshot = lines.withLock { $0.complete }
            if snapshot.contains(where: predicate) { return snapshot }
            try await Task.sleep(for: .milliseconds(20))
        }
        let snapshot = lines.withLock { $0.complete }
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
