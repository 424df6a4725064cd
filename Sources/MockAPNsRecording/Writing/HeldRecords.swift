/// The numbers of the records whose lines wait in the file sink's buffer, in order: runs of consecutive `seq`s (a gap
/// where records were dropped for a file unwritable too long).
struct HeldRecords {
    private(set) var ranges: [ClosedRange<UInt64>] = []
    private(set) var count = 0

    /// Adds the records numbered `range`, after those held.
    mutating func append(_ range: ClosedRange<UInt64>) {
        ranges.append(range)
        count += range.count
    }

    /// Forgets the first `n` records (written); returns the last one's `seq`, or nil when `n` is 0.
    mutating func removeFirst(_ n: Int) -> UInt64? {
        guard n > 0 else { return nil }
        var left = min(n, count)
        count -= left
        var last: UInt64 = 0
        while left > 0, let first = ranges.first {
            if first.count <= left {
                left -= first.count
                last = first.upperBound
                ranges.removeFirst()
            } else {
                last = first.lowerBound + UInt64(left) - 1
                ranges[0] = (last + 1)...first.upperBound
                left = 0
            }
        }
        return last
    }
}
