import Foundation
import MockAPNs
import ServiceLifecycle
import UnixSignals

/// SIGHUP and SIGUSR1 reopen the `--record` file at its path, what log rotation by rename needs
/// (`mv rec.jsonl rec.jsonl.1; kill -HUP <pid>`); SIGUSR1 too because nginx and others use it for "reopen your
/// logs". Neither signal ever stops the server: both are ignored from the start of `serve` (``ignoreUntilRunning()``)
/// until this service handles them.
struct ReopenSignalService: Service, CustomStringConvertible {
    let recorder: Recorder
    var description: String { "reopen signals" }

    /// Makes SIGHUP and SIGUSR1 harmless before anything listens: one arriving during start-up cannot kill the process.
    static func ignoreUntilRunning() {
        signal(SIGHUP, SIG_IGN)
        signal(SIGUSR1, SIG_IGN)
    }

    func run() async throws {
        let signals = await UnixSignalsSequence(trapping: .sighup, .sigusr1)
        for await received in signals.cancelOnGracefulShutdown() {
            let name = received == .sighup ? "SIGHUP" : "SIGUSR1"
            guard recorder.filePath != nil else {
                FileHandle.standardError.write(Data("mockapns: \(name): no --record file to reopen\n".utf8))
                continue
            }
            // Waits for the file writer's own thread: this task is on Swift's pool, never on an event loop.
            recorder.reopenFile()   // says on stderr what it did
        }
    }
}
