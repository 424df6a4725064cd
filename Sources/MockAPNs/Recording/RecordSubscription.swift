/// Every record the recorder stores from the moment of subscribing, in order, for as long as the consumer iterates.
///
/// The recorder hands each record over as stored; the payload lint findings a live view shows are filled in here,
/// as the consumer takes each record, so that linting runs on the consumer's task and never on the event-loop
/// thread that stored the record. Consumers that do not read `lint` (counters, logs) subscribe without it.
public struct RecordSubscription: AsyncSequence, Sendable {
    public typealias Element = RecordedRequest

    let records: AsyncStream<RecordedRequest>
    let lint: Bool

    /// Reads records one at a time, linting each as it is taken when the subscription asked for lint.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var records: AsyncStream<RecordedRequest>.AsyncIterator
        let lint: Bool

        /// The next record, or nil once the recorder has shut down or the consumer's task is cancelled.
        public mutating func next() async -> RecordedRequest? {
            guard let record = await records.next() else { return nil }
            return lint ? record.withLint() : record
        }
    }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(records: records.makeAsyncIterator(), lint: lint)
    }
}
