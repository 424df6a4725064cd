/// Every record the recorder stores from the moment of subscribing, in order, for as long as the consumer iterates.
///
/// Records are read by position (`RecordFollower`) at the consumer's pace, so the recorder's loop threads do no work
/// per record for it. The payload lint findings a live view shows are filled in as the consumer takes each record,
/// on the consumer's task. Consumers that do not read `lint` (counters, logs) subscribe without it.
public struct RecordSubscription: AsyncSequence, Sendable {
    public typealias Element = RecordedRequest

    let recorder: Recorder
    let start: UInt64
    let lint: Bool

    init(recorder: Recorder, after start: UInt64, lint: Bool) {
        self.recorder = recorder
        self.start = start
        self.lint = lint
    }

    /// Reads records a batch at a time, linting each as it is taken when the subscription asked for lint.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var follower: RecordFollower
        let lint: Bool
        var pending: [FollowedRecord] = []
        var index = 0

        /// The next record, or nil once the recorder has shut down or the consumer's task is cancelled.
        public mutating func next() async -> RecordedRequest? {
            while index == pending.count {
                guard let batch = await follower.next() else { return nil }
                pending = batch.records
                index = 0
            }
            defer { index += 1 }
            let record = pending[index].record
            return lint ? record.withLint() : record
        }
    }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(follower: RecordFollower(recorder: recorder, after: start), lint: lint)
    }
}
