/// What one attempt of a ``BatchSink`` to write the records it holds came to.
enum BatchWriteResult {
    /// `count` records, up to and including the one numbered `through`, are written and no longer held.
    case written(through: UInt64, count: Int)
    /// The attempt failed; the records up to `writtenThrough` (when some went through before the failure) are
    /// written, the rest are still held. `sentence` says why, for the operator.
    case failed(writtenThrough: UInt64?, sentence: String)
}
