import Foundation
import Support

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

    /// Says on stderr that the store pruned ids in `range` before this tail read them, and counts it (how many of the
    /// ids were records of the namespace is not known: the database numbers every namespace's records in one series).
    func pruned(_ range: ClosedRange<UInt64>) {
        counts.withLock { $0.gaps += 1 }
        StandardStreams.writeError(Self.prunedLine(range) + "\n")
    }

    /// The stderr line for ids the store pruned unread.
    static func prunedLine(_ range: ClosedRange<UInt64>) -> String {
        "mockapns tail: records with ids \(range.lowerBound)–\(range.upperBound) were pruned by the store's retention "
            + "(--retain-count/--retain-age) before this tail read them; a longer retention keeps them"
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
        if counts.gaps > 0 { text += counts.skipped > 0 ? ", \(counts.skipped) skipped in \(counts.gaps) gap(s)" : ", \(counts.gaps) gap(s)" }
        return text
    }

    /// Whether any record was skipped.
    var hadGaps: Bool { counts.withLock { $0.gaps > 0 } }
}
