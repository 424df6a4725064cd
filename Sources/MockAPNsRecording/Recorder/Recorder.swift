import APNsModel
import Foundation
import Support

/// Keeps every request the mock answered: the newest in memory for queries, waiters and followers, and
/// (optionally) all of them in a JSON Lines file and a ``RecordStore``, each written by a ``BatchWriter``.
///
/// It composes three parts under one short lock: the ``RecordRing`` (numbering, the ring, reads by number), the
/// ``RecordFeed`` (who to wake: waiters, followers, the shared-line window) and the counters; and it hands each record
/// to the writers in `seq` order. One lock, because a record's number, its place in the ring, the waiters' counts and
/// its place in the file's queue must change together.
///
/// Followers (the live stream, `mockapns tail`, the dashboard) read the ring by position (`read(after:limit:)`),
/// so storing a record costs the loop thread the same whether nobody or many follow: it only wakes followers that
/// are waiting for news, once per batch they read, not once per record.
///
/// `append` is called on event-loop threads, so it only takes the lock for numbering, the ring, counters and
/// hand-offs, and never waits. Encoding and writing happen on the writers' consuming tasks. When a writer's queue is
/// full (a disk or database slower than the traffic), the writer shuts ``intake``: the transports stop reading new
/// requests until it has caught up, so intake slows down rather than memory growing, records being lost, or a loop
/// thread waiting for a writer that may need that very loop.
public final class Recorder: Sendable {
    private struct State {
        var ring: RecordRing
        var feed = RecordFeed()
        /// Everything counted since start; `clear()` moves `clearedTotals` up to it instead of resetting it.
        var totals = RecorderTotals()
        var clearedTotals = RecorderStatistics()
    }

    /// How many records each writer's queue holds before it shuts ``intake``: about 100 MB of records in the worst
    /// case, and far more than a healthy writer ever has waiting (it takes the queue every 100 ms, or at its sink's
    /// batch size).
    public static let defaultWriterQueueLimit = 65_536

    private let state: Locked<State>
    /// On once a follower has read records: from then on storing a record drops the line of the one leaving
    /// ``RecordFeed/sharedLineWindow``, and the file writer hands the lines it encodes to followers.
    let lineSharing: LineSharing
    /// Shut while a writer's queue is full: the transports stop reading requests until it opens (``IntakeGate``).
    public let intake = IntakeGate()
    private let fileWriter: BatchWriter<RecordFileSink>?
    private let storeWriter: BatchWriter<RecordStoreSink>?
    /// The JSON Lines file every record is appended to, when there is one (searches page into it).
    public let filePath: String?
    /// How many records the memory ring keeps; older ones remain only in the file.
    public let memoryLimit: Int
    /// Where each block of records starts in the file, so search pages do not re-read it from the start.
    let fileIndex: RecordFileIndex

    /// Makes a recorder keeping at most `memoryLimit` records in memory and, when `filePath` is set,
    /// appending every record to that JSON Lines file. An existing file is continued: a torn last line is cut off
    /// and numbering goes on after its highest `seq` (both said on stderr). `synchronousFile` (`--record-sync`)
    /// makes `appendNumbered(_:whenWritten:)` hold each answer until its record's line is written.
    ///
    /// `store`, when set, receives every record too, in batches from its own task (`--store`); with
    /// `synchronousStore` an answer also waits until its record's batch is committed there.
    ///
    /// `writerQueueLimit` (`--record-queue`) is how many records each writer's queue holds before it shuts ``intake``.
    public convenience init(memoryLimit: Int = 50_000, filePath: String? = nil, synchronousFile: Bool = false,
                            store: (any RecordStore)? = nil, synchronousStore: Bool = false,
                            writerQueueLimit: Int = Recorder.defaultWriterQueueLimit) throws(RecorderError) {
        try self.init(memoryLimit: memoryLimit, filePath: filePath, fileQueueLimit: writerQueueLimit,
                      synchronousFile: synchronousFile, store: store, storeQueueLimit: writerQueueLimit,
                      synchronousStore: synchronousStore)
    }

    /// `init(memoryLimit:filePath:)` with the file writer's queue limit, how much it holds for an unwritable file,
    /// the system calls it makes, and a hook run before each batch it writes.
    init(memoryLimit: Int, filePath: String?, fileQueueLimit: Int,
         heldBytesLimit: Int = RecordFileSink.defaultHeldBytesLimit, synchronousFile: Bool = false,
         fileOperations: RecordFileAppender.FileOperations = .system,
         beforeFileBatch: (@Sendable () -> Void)? = nil,
         store: (any RecordStore)? = nil, storeQueueLimit: Int = Recorder.defaultWriterQueueLimit,
         synchronousStore: Bool = false) throws(RecorderError) {
        guard memoryLimit > 0 else { throw .invalidMemoryLimit(memoryLimit) }
        guard fileQueueLimit > 0, storeQueueLimit > 0 else { throw .invalidQueueLimit(min(fileQueueLimit, storeQueueLimit)) }
        self.memoryLimit = memoryLimit
        self.filePath = filePath
        let fileIndex = RecordFileIndex()
        self.fileIndex = fileIndex
        let lineSharing = LineSharing()
        self.lineSharing = lineSharing
        let fileSink = try filePath.map { path throws(RecorderError) in
            try RecordFileSink(path: path, heldBytesLimit: heldBytesLimit, operations: fileOperations,
                               beforeBatch: beforeFileBatch, fileChanged: { [fileIndex] in fileIndex.reset() },
                               lineSharing: lineSharing)
        }
        let intake = self.intake
        fileWriter = fileSink.map { sink in
            BatchWriter(sink: sink, queueLimit: fileQueueLimit, synchronous: synchronousFile, gate: intake,
                        holder: .recordFile, threadName: "record-file")
        }
        storeWriter = store.map { store in
            BatchWriter(sink: RecordStoreSink(store: store), queueLimit: storeQueueLimit, synchronous: synchronousStore,
                        gate: intake, holder: .recordStore)
        }
        let recovery = fileSink?.recovery ?? RecordFileRecovery()
        if let path = filePath {
            if recovery.trimmedBytes > 0 {
                Self.say("\(path) ended in a torn line (\(recovery.trimmedBytes) bytes without a newline, left by a crash "
                         + "or a full disk); cut it off")
            }
            if recovery.highestSeq > 0 {
                Self.say("continuing \(path) after seq \(recovery.highestSeq)")
            }
        }
        state = Locked(State(ring: RecordRing(capacity: memoryLimit, lastSeq: recovery.highestSeq)))
    }

    private static func say(_ text: String) {
        FileHandle.standardError.write(Data("mockapns: \(text)\n".utf8))
    }

    /// The record file's state (writable or not, records lost), or nil without a file.
    public var fileStatus: RecordFileStatus? { fileWriter?.status }

    /// Whether the record file is failing (disk full, I/O error): no answer should claim success meanwhile.
    public var fileIsUnwritable: Bool { fileWriter?.status.isUnwritable ?? false }

    /// Whether answers wait for their record's line to be written (`--record-sync`).
    public var writesBeforeAnswering: Bool { (fileWriter?.synchronous ?? false) || (storeWriter?.synchronous ?? false) }

    /// The record store's state (taking records or not, records lost), or nil without a store (`--store`).
    public var storeStatus: RecordFileStatus? { storeWriter?.status }

    /// Where the record store writes, for messages (no secrets), or nil without a store.
    public var storeLabel: String? { storeWriter?.sink.label }

    /// The record store writer's progress (batches, records, commit times, batch sizes, queue depth, records
    /// pruned), or nil without a store.
    public var storeProgress: RecordStoreProgress? {
        guard let storeWriter else { return nil }
        var progress = storeWriter.sink.progress
        progress.queued = storeWriter.queued
        return progress
    }

    /// Counts records retention pruned from the store, for `/metrics` (the pruner calls it after each round).
    public func countStorePruned(_ records: Int) {
        storeWriter?.sink.countPruned(records)
    }

    /// Whether the record store refuses records (database down): no answer should claim success meanwhile.
    public var storeIsUnwritable: Bool { storeWriter?.status.isUnwritable ?? false }

    /// Whether the file or the store cannot take records: the pipeline answers 500 instead of success meanwhile.
    public var cannotRecord: Bool { fileIsUnwritable || storeIsUnwritable }

    /// Numbers `record` (its `seq` is replaced), stores it, and hands it to the file, subscribers and waiters.
    /// Returns the record as stored.
    @discardableResult
    public func append(_ record: RecordedRequest) -> RecordedRequest {
        appendNumbered(record).record
    }

    /// `append`, returning the shared numbered record rather than a copy of it (the pipeline's path).
    @discardableResult
    package func appendNumbered(_ record: consuming RecordedRequest) -> NumberedRecord {
        appendNumbered(consume record, whenWritten: nil)
    }

    /// `appendNumbered`, with an action run once the record is written by every synchronous writer (true) or known lost
    /// (false), from the writer's task; at once (true) when no writer is synchronous.
    @discardableResult
    package func appendNumbered(_ record: consuming RecordedRequest, whenWritten: WriteCompletion?) -> NumberedRecord {
        // Only numbering and hand-offs under the lock, which every loop shares: the record is boxed before it,
        // and the one it pushes out of the ring (whose fields may be freed with it) is released after it.
        let status = record.response.status
        let reason = record.response.reason
        let pushType = record.header("apns-push-type")
        let duration = record.durationMicros
        let churn = record.flagsConnectionChurn
        let shared = NumberedRecord(consume record)   // moved, not copied: the record is a value of many reference-counted fields
        var woken: [RecordFeed.WokenWaiter] = []
        var evicted: NumberedRecord?
        var leavingWindow: NumberedRecord?
        defer {
            // Released here, outside the lock: the record pushed out of the ring, and the shared line of the one
            // that just left the followers' window (only once some follower has encoded lines).
            withExtendedLifetime(evicted) {}
            if let leavingWindow { _ = leavingWindow.dropLine() }
        }
        // `--record-sync`: the answer waits for each synchronous writer; with two, for both.
        var fileCompletion: WriteCompletion?
        var storeCompletion: WriteCompletion?
        if let whenWritten {
            let fileWaits = fileWriter?.synchronous == true, storeWaits = storeWriter?.synchronous == true
            if fileWaits && storeWaits {
                let join = CompletionJoin(parts: 2, action: whenWritten)
                fileCompletion = join.part
                storeCompletion = join.part
            } else if fileWaits {
                fileCompletion = whenWritten
            } else if storeWaits {
                storeCompletion = whenWritten
            }
        }
        var followers: [CheckedContinuation<Void, Never>] = []
        state.withLock { state in
            evicted = state.ring.append(shared)
            if lineSharing.isOn { leavingWindow = RecordFeed.lineLeavingWindow(in: state.ring) }
            fileWriter?.enqueue(shared, completion: fileCompletion)   // under the lock: file in `seq` order
            storeWriter?.enqueue(shared, completion: storeCompletion)
            state.totals.statistics.count(status: status, reason: reason, pushType: pushType, connectionChurn: churn)
            state.totals.durations.add(micros: duration)
            // Asked first, so a record nobody waits for costs no call (continuations are resilient types, each
            // touch of one a runtime call).
            if state.feed.hasWaiters { woken = state.feed.recordAdded(shared, evicted: evicted, in: state.ring) }
            if state.feed.hasFollowers { followers = state.feed.takeFollowers() }
        }
        // Followers read and encode on their own tasks; this thread only wakes those waiting for news.
        if !followers.isEmpty {
            for continuation in followers { continuation.resume() }
        }
        if !woken.isEmpty {
            for (continuation, records) in woken { continuation.resume(returning: records) }   // linted by the waiter
        }
        if fileCompletion == nil, storeCompletion == nil, let whenWritten { whenWritten(true) }
        return shared
    }

    /// The records in memory that match `filter`, oldest first (`limit` keeps the newest).
    public func records(matching filter: RecordFilter = RecordFilter()) -> [RecordedRequest] {
        filter.apply(to: state.withLock { $0.ring.ordered() }).map { $0.withLint() }
    }

    /// The record numbered `seq`, while it is still in memory.
    public func record(seq: UInt64) -> RecordedRequest? {
        state.withLock { $0.ring.record(seq: seq)?.record }?.withLint()
    }

    /// The numbered record `seq`, while the ring holds it.
    func numberedRecord(seq: UInt64) -> NumberedRecord? {
        state.withLock { $0.ring.record(seq: seq) }
    }

    /// Up to `limit` records numbered after `seq` that are still in memory, oldest first: what a poller that
    /// has seen everything up to `seq` has not seen yet (records already pushed out of the ring are not returned;
    /// compare with ``lastSequence`` to count them). Lint is not filled in.
    public func records(after seq: UInt64, limit: Int) -> [RecordedRequest] {
        state.withLock { $0.ring.records(after: seq, limit: limit) }
    }

    /// The newest record whose response carried `apnsID` (case-insensitive).
    public func record(apnsID: String) -> RecordedRequest? {
        let wanted = apnsID.lowercased()
        return state.withLock { $0.ring.ordered() }.last { $0.response.apnsID?.lowercased() == wanted }?.withLint()
    }

    /// Forgets the records in memory and resets the statistics; numbering goes on, the file is kept.
    public func clear() {
        state.withLock { state in
            state.ring.clear()
            state.clearedTotals = state.totals.statistics
            state.feed.ringCleared()
        }
    }

    /// Forgets the oldest records in memory that `retention` lets go of (past its count, or received before its
    /// time), as if pushed out of the ring: a record file keeps them. Returns how many were forgotten.
    @discardableResult
    public func pruneMemory(_ retention: RecordRetention) -> Int {
        var released: [NumberedRecord] = []
        defer { withExtendedLifetime(released) {} }   // freed after the lock
        return state.withLock { state in
            while let oldest = state.ring.oldest {
                let pastCount = retention.keepNewest.map { state.ring.count > $0 } ?? false
                let pastAge = retention.receivedBeforeMillis.map { oldest.base.receivedAtMillis < $0 } ?? false
                guard pastCount || pastAge else { break }
                state.feed.recordForgotten(oldest.record)
                _ = state.ring.removeOldest()
                released.append(oldest)
            }
            return released.count
        }
    }

    /// The records in memory, oldest first, without lint; and the numbers bounding what a search may read from
    /// the file: records after `clearedThrough` and before `oldestInMemory` live only there.
    func snapshot() -> (records: [RecordedRequest], oldestInMemory: UInt64, clearedThrough: UInt64) {
        state.withLock { state in
            (state.ring.ordered(), state.ring.oldestSeq, state.ring.clearedThrough)
        }
    }

    /// Counters over everything recorded since start (or the last `clear`).
    public var statistics: RecorderStatistics {
        let (now, cleared) = state.withLock { state in (state.totals.statistics, state.clearedTotals) }
        return now.since(cleared)
    }

    /// Counters over everything recorded since start, whatever `clear` forgot: they only grow.
    public var totals: RecorderTotals { state.withLock { $0.totals } }

    /// How many `waitForRecords` calls are waiting.
    var waiterCount: Int { state.withLock { $0.feed.waiterCount } }

    /// The number of the last record (0 when none yet).
    public var lastSequence: UInt64 { state.withLock { $0.ring.lastSeq } }

    /// Every record from now on, as it is recorded, with its lint findings when `lint` is true (filled in on the
    /// consumer's task). Ends when the recorder shuts down or the consumer stops. Read by position on the consumer's
    /// task (`RecordFollower`): a consumer that falls behind the memory ring continues from the `--record` file when
    /// there is one, else skips ahead (use `RecordFollower` directly to be told the skipped range).
    public func subscribe(lint: Bool = true) -> RecordSubscription {
        RecordSubscription(recorder: self, after: lastSequence, lint: lint)
    }

    /// Up to `limit` records after `cursor` from memory, and the range of records after `cursor` that memory no
    /// longer holds (pushed out of the ring while the follower was behind; records forgotten by `clear()` are not
    /// counted as skipped). Returns at once, possibly with nothing.
    func read(after cursor: UInt64, limit: Int) -> (skipped: ClosedRange<UInt64>?, records: [NumberedRecord], last: UInt64) {
        state.withLock { $0.ring.read(after: cursor, limit: limit) }
    }

    /// Returns once a record after `cursor` exists, the recorder shuts down, `timeout` passes or the task is
    /// cancelled. The loop thread that stores the next record resumes every waiting follower at once.
    func waitForNews(after cursor: UInt64, timeout: Duration) async {
        let id = state.withLock { $0.feed.nextID() }
        let timer = Task { [weak self] in
            try? await Task.sleep(for: timeout)
            self?.wake(follower: id)
        }
        defer { timer.cancel() }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let waits = state.withLock { state in
                    state.feed.addFollower(id: id, after: cursor, lastSeq: state.ring.lastSeq, continuation: continuation)
                }
                if !waits { continuation.resume() }
            }
        } onCancel: {
            wake(follower: id)
        }
    }

    /// Makes every follower waiting for news return now (an empty batch), so its owner can check whether to stop:
    /// what a control plane shutting down its live streams calls.
    public func wakeFollowers() {
        let followers = state.withLock { $0.feed.takeFollowers() }
        for continuation in followers { continuation.resume() }
    }

    private func wake(follower id: UInt64) {
        state.withLock { $0.feed.removeFollower(id: id) }?.resume()
    }

    /// With a record file and followers, the last `seq` whose line the file writer has encoded (and offered to
    /// followers): a follower at the head reads up to there, sharing the writer's lines instead of encoding its own.
    /// Nil without a file, before any follower, or once shut down.
    var linesReadyThrough: UInt64? {
        guard let fileWriter, lineSharing.isOn, !isShutDown else { return nil }
        return fileWriter.sink.encodedThrough.load(ordering: .acquiring)
    }

    /// Whether `shutdown()` has run: followers stop once they have read what is left.
    var isShutDown: Bool { state.withLock { $0.feed.isShutDown } }

    /// Waits until at least `count` records in memory match `filter`, and returns them (oldest first).
    /// Throws `RecorderError.timedOut` with what did arrive when `timeout` passes first.
    public func waitForRecords(
        count: Int, matching filter: RecordFilter = RecordFilter(), timeout: Duration
    ) async throws -> [RecordedRequest] {
        let id = state.withLock { $0.feed.nextID() }
        let timeoutTask = Task { [weak self] in
            try? await Task.sleep(for: timeout)
            guard let self else { return }
            let expired: (CheckedContinuation<[RecordedRequest], any Error>, Int)? = self.state.withLock { state in
                guard let continuation = state.feed.removeWaiter(id: id) else { return nil }
                return (continuation, state.ring.ordered().filter(filter.matches).count)
            }
            if let (continuation, arrived) = expired {
                continuation.resume(throwing: RecorderError.timedOut(expected: count, arrived: arrived, timeout: timeout))
            }
        }
        defer { timeoutTask.cancel() }
        let records: [RecordedRequest] = try await withCheckedThrowingContinuation { continuation in
            let ready = state.withLock { state in
                state.feed.addWaiter(id: id, count: count, filter: filter, in: state.ring, continuation: continuation)
            }
            if let ready { continuation.resume(returning: ready) }
        }
        return records.map { $0.withLint() }   // here, on the waiter's task, not on the loop thread that woke it
    }

    /// Writes every record so far to the file and the store (those there are) and suspends until it is done.
    public func flushed() async {
        await fileWriter?.flush()
        await storeWriter?.flush()
    }

    /// Writes every record so far to the file and the store (those there are) and blocks until it is done: for
    /// callers off any event loop (a loop thread calling it is stopped, ``BlockingCheck``); `flushed()` suspends.
    public func flush() {
        fileWriter?.flushBlocking()
        storeWriter?.flushBlocking()
    }

    /// Opens the record file's path again and appends there from now on (SIGHUP after a rename rotation); does
    /// nothing without a file. Records already written stay in the file that was at the path before. Blocks until
    /// done: never on a loop.
    public func reopenFile() {
        fileWriter?.reopen()
    }

    /// Flushes and closes the file and the store's writer, and ends every subscription; suspends until done.
    public func close() async {
        await fileWriter?.close()
        await storeWriter?.close()
        endSubscriptions()
    }

    /// `close()`, blocking its thread: for callers off any event loop.
    public func shutdown() {
        fileWriter?.closeBlocking()
        storeWriter?.closeBlocking()
        endSubscriptions()
    }

    private func endSubscriptions() {
        let followers = state.withLock { $0.feed.shutDown() }
        for continuation in followers { continuation.resume() }
    }
}
