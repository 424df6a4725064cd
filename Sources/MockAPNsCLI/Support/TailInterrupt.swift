import Dispatch
import Foundation

/// Ctrl-C during `mockapns tail`: print the gap summary (when records were skipped) before exiting 130, as a
/// shell expects of an interrupted command.
enum TailInterrupt {
    /// Handles SIGINT until the returned source is cancelled.
    static func install(_ report: TailGapReport) -> any DispatchSourceSignal {
        signal(SIGINT, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: DispatchQueue(label: "mockapns.tail-interrupt"))
        source.setEventHandler {
            if report.hadGaps { StandardStreams.writeError(report.summary + "\n") }
            exit(130)
        }
        source.resume()
        return source
    }
}
