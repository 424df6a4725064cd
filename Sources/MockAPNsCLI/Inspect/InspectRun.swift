import ArgumentParser
import Foundation

/// Runs a command body and turns its outcome into the documented exit statuses:
/// 0 ok, 1 a check failed, 2 a usage or input problem (message on standard error).
enum InspectRun {
    /// Runs `body`; it returns `true` when its check passed (commands without a check return `true`).
    static func run(_ body: () async throws -> Bool) async throws {
        let passed: Bool
        do {
            passed = try await body()
        } catch let error as InspectError {
            StandardStreams.writeError("mockapns: \(error.description)\n")
            throw ExitCode(2)
        }
        if !passed { throw ExitCode(1) }
    }
}
