import Foundation
import Synchronized

/// What `mockapns tail` says about records it never printed: one stderr line per gap the server reported, and a
/// summary when the command ends (stream closed or Ctrl-C), so nobody reads a tail believing it saw everything.
final class TailGapReport: Sendable {
    private struct Counts {
        var printed = 0
        var gaps = 0
        var skipped: UInt64 = 0
    }

    private let counts = Locked(Counts())

    /// Counts one printed record.
    func printed() {
        counts.withLock { $0.printed += 1 }
    }

    /// Says on stderr that `range` was skipped, and counts it.
    func skipped(_ range: ClosedRange<UInt64>) {
        let count = range.upperBound - range.lowerBound + 1
        counts.withLock { counts in
            counts.gaps += 1
            counts.skipped += count
        }
        StandardStreams.writeError(Self.gapLine(range) + "\n")
    }

    /// The stderr line for one gap.
    static func gapLine(_ range: ClosedRange<UInt64>) -> String {
        let count = range.upperBound - range.lowerBound + 1
        return "mockapns tail: skipped \(count) record(s) (seq \(range.lowerBound)–\(range.upperBound)): this terminal "
            + "could not keep up and the server no longer holds them in memory; a server started with --record FILE "
            + "keeps them all (read it with --file, or `mockapns export`)"
    }

    /// The closing line: how many records were printed and, when any were skipped, how many and in how many gaps.
    var summary: String {
        let counts = self.counts.withLock { $0 }
        var text = "mockapns tail: \(counts.printed) record(s) printed"
        if counts.gaps > 0 { text += ", \(counts.skipped) skipped in \(counts.gaps) gap(s)" }
        return text
    }

    /// Whether any record was skipped.
    var hadGaps: Bool { counts.withLock { $0.gaps > 0 } }
}
