import Dispatch
import Foundation

/// Waits for SIGINT or SIGTERM, so `serve` can flush its recording and exit 0.
enum ShutdownSignal {
    static func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let queue = DispatchQueue(label: "mockapns.signals")
            let once = Once(continuation)
            for signalNumber in [SIGINT, SIGTERM] {
                signal(signalNumber, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: queue)
                source.setEventHandler { once.fire() }
                source.resume()
                Retained.sources.append(source)
            }
        }
    }

    /// Resumes the continuation on the first signal only. Accessed only on the signal queue (serial).
    private final class Once: @unchecked Sendable {
        private var continuation: CheckedContinuation<Void, Never>?
        init(_ continuation: CheckedContinuation<Void, Never>) { self.continuation = continuation }
        func fire() {
            continuation?.resume()
            continuation = nil
        }
    }

    /// Keeps the signal sources alive for the life of the process. Written once, before any signal.
    private enum Retained {
        nonisolated(unsafe) static var sources: [any DispatchSourceSignal] = []
    }
}
