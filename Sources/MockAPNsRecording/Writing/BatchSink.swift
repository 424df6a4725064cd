/// Where a ``BatchWriter`` puts records: the JSON Lines file (``RecordFileSink``) or a record store
/// (``RecordStoreSink``).
///
/// The writer owns what both have in common (the bounded queue and its back-pressure, `flush`, `--record-sync`
/// completions, the writable and unwritable states and their messages, what is counted lost); a sink only holds what
/// the writer takes from the queue and writes it. Its methods are called by the writer's one consuming task, one at a
/// time, so a sink's own state needs no lock.
protocol BatchSink: AnyObject, Sendable {
    /// Where the records go, for messages: the file's path, or the store's label (no secrets).
    var label: String { get }
    /// How many queued records wake the writer before its 100 ms interval: the sink's natural batch.
    var wakeThreshold: Int { get }
    /// How many records the sink holds, taken from the queue and not yet written.
    var heldCount: Int { get }
    /// Whether the writer waits 100 ms after a failed attempt before the next, rather than trying again as soon as
    /// a record arrives: for a sink that costs a round trip to a server to find out it is still down.
    var pausesAfterFailure: Bool { get }

    /// Takes `batch` (in `seq` order, after every record held so far) to write; returns false when the sink already
    /// holds as much as it may while it cannot write, and the batch is lost.
    func hold(_ batch: [NumberedRecord]) -> Bool
    /// Tries once to write what the sink holds (or, for a sink that writes in chunks, its next chunk).
    func writeHeld() async -> BatchWriteResult
    /// Forgets everything held (the writer is stopping and the last attempt failed); returns the `seq` ranges dropped.
    func dropHeld() -> [ClosedRange<UInt64>]
    /// Opens the destination again (a file renamed away by rotation); does nothing where that means nothing.
    func reopen()
    /// A sentence for the operator when callers first had to wait for room in the queue, or nil to say nothing.
    func fallingBehindSentence(queueLimit: Int) -> String?
    /// A sentence for the operator when writing works again after failing: `written` records just went through,
    /// `lost` were lost in all.
    func recoveredSentence(written: Int, lost: Int) -> String
}
