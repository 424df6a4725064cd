/// Request durations counted into fixed buckets, with each bucket's sum: a latency histogram the recorder keeps for
/// the cost of a few comparisons per record, so `/metrics` never has to follow the records one by one.
public struct DurationBuckets: Sendable, Equatable {
    /// The buckets' upper bounds in microseconds (inclusive, as Prometheus's `le`): 100 µs … 5 s, then +Inf.
    public static let boundsMicros: [Int64] = [100, 250, 500, 1_000, 2_500, 5_000, 10_000, 25_000, 50_000, 100_000,
                                               250_000, 500_000, 1_000_000, 2_500_000, 5_000_000]

    /// Durations per bucket, `boundsMicros.count + 1` of them (the last one above every bound). Not cumulative.
    public private(set) var counts: [Int] = Array(repeating: 0, count: boundsMicros.count + 1)
    /// The sum of the durations in each bucket, in microseconds (saturating).
    public private(set) var sumsMicros: [Int64] = Array(repeating: 0, count: boundsMicros.count + 1)

    /// No durations yet.
    public init() {}

    /// Counts one duration (a negative one, which a clock step could give, counts as 0).
    public mutating func add(micros: Int64) {
        let micros = max(0, micros)
        var index = 0
        while index < Self.boundsMicros.count, micros > Self.boundsMicros[index] { index += 1 }
        counts[index] += 1
        let (sum, overflow) = sumsMicros[index].addingReportingOverflow(micros)
        sumsMicros[index] = overflow ? .max : sum
    }
}
