/// The client stream ids a connection has opened, as runs of consecutive odd ids (a client opens 1, 3, 5, … so
/// there is usually one run): enough to tell a never-opened id below the highest one from a closed one, in a few
/// bytes. A client that skips ids more than ``maximumRuns`` times stops being tracked, and then nothing is called
/// never opened (lenient rather than wrong).
struct OpenedStreamIDs {
    /// The most runs kept.
    static let maximumRuns = 64
    private var runs: [ClosedRange<Int32>] = []
    private var overflowed = false

    /// The highest id opened, if any.
    var highest: Int32? { runs.last?.upperBound }

    /// Notes that `id` opened a stream (ids arrive in increasing order; others are ignored).
    mutating func add(_ id: Int32) {
        guard !overflowed else { return }
        guard let last = runs.last else {
            runs.append(id...id)
            return
        }
        guard id > last.upperBound else { return }
        if id == last.upperBound &+ 2 {
            runs[runs.count - 1] = last.lowerBound...id
        } else if runs.count < Self.maximumRuns {
            runs.append(id...id)
        } else {
            overflowed = true
            runs = []
        }
    }

    /// Whether `id` (odd, below ``highest``) was certainly never opened.
    func neverOpened(_ id: Int32) -> Bool {
        guard !overflowed else { return false }
        return !runs.contains { $0.contains(id) && ($0.lowerBound - id) % 2 == 0 }
    }
}
