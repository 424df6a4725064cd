/// What a store knows of the records table's partitions: their span (read from the database once) and the starts of
/// those it has seen exist, so a batch asks the database to create partitions only when it reaches a span it has not
/// written to yet.
struct PartitionSpans: Sendable {
    /// The span in milliseconds, once read.
    var span: Int64?
    private var known = Set<Int64>()

    /// The start of the span holding `millis` (rounded down, as the database's partition function does), or nil when
    /// it is not representable (the first span of all).
    func start(of millis: Int64) -> Int64? {
        guard let span, span > 0 else { return nil }
        let (quotient, remainder) = millis.quotientAndRemainder(dividingBy: span)
        let floor = remainder < 0 ? quotient - 1 : quotient
        let (start, overflow) = floor.multipliedReportingOverflow(by: span)
        return overflow ? nil : start
    }

    /// The spans to create for records received at `times`: each one's own and the one after the newest (created
    /// ahead of need), less those known to exist. Each is named by an instant inside it.
    func missing(around times: [Int64]) -> [Int64] {
        guard let span else { return [] }
        var starts = Set(times.compactMap { start(of: $0) })
        if let newest = starts.max() {
            let (next, overflow) = newest.addingReportingOverflow(span)
            if !overflow { starts.insert(next) }
        }
        return starts.subtracting(known).sorted()
    }

    /// Notes that the partitions starting at `starts` exist.
    mutating func markKnown(_ starts: [Int64]) { known.formUnion(starts) }

    /// Forgets which partitions exist (retention dropped one): the next batch asks again.
    mutating func forgetKnown() { known.removeAll() }
}
