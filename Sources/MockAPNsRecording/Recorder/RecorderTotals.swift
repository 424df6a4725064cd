/// Counters over every request since the recorder started: unlike ``Recorder/statistics``, `clear()` does not reset
/// them, so they only grow, as Prometheus counters must.
public struct RecorderTotals: Sendable, Equatable {
    /// Requests by status, reason and push type.
    public var statistics = RecorderStatistics()
    /// How long requests took, from arrival to their response being handed to the transport.
    public var durations = DurationBuckets()

    /// Nothing counted yet.
    public init() {}
}
