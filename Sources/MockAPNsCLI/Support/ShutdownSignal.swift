import Dispatch
import Foundation
import Support

/// SIGINT and SIGTERM, so `serve` can flush its recording and exit 0. Installed before anything listens (`install()`),
/// so a signal sent the moment the ready file appears is kept for `wait()`, not lost or fatal.
final class ShutdownSignal: Sendable {
    private struct State {
        var fired = false
        var continuation: CheckedContinuation<Void, Never>?
    }

    private let state = Locked(State())

    /// Starts catching SIGINT and SIGTERM (ignored by default from here on, delivered to the dispatch sources).
    static func install() -> ShutdownSignal {
        let shutdown = ShutdownSignal()
        let queue = DispatchQueue(label: "mockapns.signals")
        for signalNumber in [SIGINT, SIGTERM] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: queue)
            source.setEventHandler { shutdown.fire() }
            source.resume()
            Retained.sources.withLock { $0.append(source) }
        }
        return shutdown
    }

    /// Returns once SIGINT or SIGTERM has arrived (at once if one arrived already).
    func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let firedAlready = state.withLock { state -> Bool in
                if state.fired { return true }
                state.continuation = continuation
                return false
            }
            if firedAlready { continuation.resume() }
        }
    }

    private func fire() {
        let waiting = state.withLock { state -> CheckedContinuation<Void, Never>? in
            defer { state.fired = true; state.continuation = nil }
            return state.fired ? nil : state.continuation
        }
        waiting?.resume()
    }

    /// Keeps the signal sources alive for the life of the process.
    private enum Retained {
        static let sources = Locked<[any DispatchSourceSignal]>([])
    }
}
