
/// Evaluates an ``Expectation`` one record at a time, keeping only what its report needs — counts, the matching
/// sequence numbers, the last few matches and the closest few misses — so a recording file or store is checked,
/// whatever its size, in constant memory (apart from the matching sequence numbers).
public struct ExpectationTally {
    /// Matching records kept for the report's "Matching records:" list.
    public static let keptMatches = 5
    /// Near misses kept for the report's "Closest records:" list.
    public static let keptMisses = 3

    /// What is checked.
    public let expectation: Expectation
    private let criteria: [Expectation.Criterion]
    private let scope: RecordFilter
    private var considered = 0
    private var matchedCount = 0
    private var matchedSeqs: [UInt64] = []
    private var lastMatched: [RecordedRequest] = []
    /// The best misses so far, best first: fewest missed criteria, then newest.
    private var closest: [(record: RecordedRequest, misses: [Expectation.Criterion])] = []

    /// An empty tally for `expectation`.
    public init(_ expectation: Expectation) {
        self.expectation = expectation
        criteria = expectation.criteria
        var scope = RecordFilter()
        scope.since = expectation.filter.since
        self.scope = scope
    }

    /// Counts one record (records are given in recording order).
    public mutating func add(_ record: RecordedRequest) {
        guard scope.matches(record) else { return }
        considered += 1
        let misses = criteria.filter { !$0.test(record) }
        if misses.isEmpty {
            matchedCount += 1
            matchedSeqs.append(record.seq)
            lastMatched.append(record)
            if lastMatched.count > Self.keptMatches { lastMatched.removeFirst() }
            return
        }
        // Ties keep recording order, as the stable sort over all records did.
        let position = closest.firstIndex { kept in
            misses.count != kept.misses.count ? misses.count < kept.misses.count : record.seq > kept.record.seq
        } ?? closest.endIndex
        guard position < Self.keptMisses else { return }
        closest.insert((record, misses), at: position)
        if closest.count > Self.keptMisses { closest.removeLast() }
    }

    /// The outcome so far.
    public func result() -> ExpectationResult {
        let near = closest.map { entry in
            ExpectationResult.NearMiss(
                record: entry.record,
                met: criteria.count - entry.misses.count,
                misses: entry.misses.map { ExpectationReport.Miss.missed($0.label, found: $0.found(entry.record)) }
            )
        }
        return ExpectationResult(
            expectation: expectation, considered: considered, matchedCount: matchedCount, matchedSeqs: matchedSeqs,
            lastMatched: lastMatched, met: expectation.quantity.accepts(matchedCount), closest: near,
            criteriaCount: criteria.count
        )
    }
}
