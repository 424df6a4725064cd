import Dispatch
import Foundation

/// SIGHUP and SIGUSR1: reopen the `--record` file at its path, what log rotation by rename needs
/// (`mv rec.jsonl rec.jsonl.1; kill -HUP <pid>`). Neither signal ever stops the server: their default action
/// (terminate) is replaced from the start of `serve`, before anything is listening.
enum ReopenSignal {
    /// The signals that reopen; SIGUSR1 too because nginx and others use it for "reopen your logs".
    static let signals: [Int32] = [SIGHUP, SIGUSR1]

    /// Ignores the signals until `handle` installs the handler, so one arriving during start-up cannot kill the
    /// process.
    static func ignoreUntilHandled() {
        for signalNumber in signals { signal(signalNumber, SIG_IGN) }
    }

    /// Runs `reopen` on a queue of its own (it may block on the file writer, never on a loop thread) for each
    /// SIGHUP or SIGUSR1, one at a time.
    static func handle(_ reopen: @escaping @Sendable (_ signalName: String) -> Void) {
        let queue = DispatchQueue(label: "mockapns.reopen-signals")
        for signalNumber in signals {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: queue)
            let name = signalNumber == SIGHUP ? "SIGHUP" : "SIGUSR1"
            source.setEventHandler { reopen(name) }
            source.resume()
            Retained.sources.append(source)
        }
    }

    /// Keeps the signal sources alive for the life of the process. Written before any of these signals is handled.
    private enum Retained {
        nonisolated(unsafe) static var sources: [any DispatchSourceSignal] = []
    }
}
