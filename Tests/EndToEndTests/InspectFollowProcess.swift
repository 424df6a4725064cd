import Foundation
import Synchronization
import XCTest

/// A long-running `mockapns` (e.g. `tail`) whose output a test reads while it runs.
final class InspectFollowProcess: Sendable {
    private let process = Process()
    private let collected = InspectCLI.Collected()

    /// Starts `mockapns arguments…`.
    init(_ arguments: [String]) throws {
        try InspectCLI.start(process, arguments, collecting: collected)
    }

    /// The process id (for `mockapns wait --pid`).
    var pid: Int32 { process.processIdentifier }

    /// Waits until standard output has `count` lines satisfying `predicate`; returns the output.
    @discardableResult
    func waitForLines(_ count: Int, timeout: Duration = .seconds(15), where predicate: (Substring) -> Bool = { _ in true }) async throws -> String {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let text = collected.stdout
            if text.split(separator: "\n").filter(predicate).count >= count { return text }
            try await Task.sleep(for: .milliseconds(20))
        }
        let text = collected.stdout
        XCTFail("wanted \(count) lines within \(timeout); output so far: \(text); errors: \(collected.result(status: 0).stderr)")
        return text
    }

    /// Waits for the process to exit by itself; its result, or nil after `timeout`.
    func waitForExit(timeout: Duration = .seconds(15)) async throws -> InspectCLI.Result? {
        let deadline = ContinuousClock.now + timeout
        while process.isRunning {
            if ContinuousClock.now > deadline { return nil }
            try await Task.sleep(for: .milliseconds(20))
        }
        try await collected.waitForEnd()
        return collected.result(status: process.terminationStatus)
    }

    /// Kills it (SIGKILL) if it still runs: a crash, with no chance to flush or close anything.
    func kill() {
        if process.isRunning { Foundation.kill(process.processIdentifier, SIGKILL) }
    }

    /// Interrupts it (SIGINT) if it still runs, as a person's ^C would.
    func stop() {
        if process.isRunning { process.interrupt() }
    }
}
