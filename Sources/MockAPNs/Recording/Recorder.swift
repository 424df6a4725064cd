import APNsModel
import Foundation
import Synchronization
import Synchronized

/// Keeps every request the mock answered: a bounded in-memory ring for queries, waiters and followers, and
/// (optionally) a JSON Lines file and a ``RecordStore``, each written by a background thread.
///
/// Followers (the live stream, `mockapns tail`, the dashboard) read the ring by position (`follow(after:limit:)`),
/// so storing a record costs the loop thread the same whether nobody or many follow: it only wakes followers that
/// are waiting for news, once per batch they read, not once per record.
///
/// `append` is called on event-loop threads, so it only takes a short lock: numbering, the ring, counters
/// and hand-offs. Encoding and disk writes happen on the file writer's own thread. The one time `append` waits
/// is when the file's queue is full (a disk slower than the traffic): it then holds its caller, with no lock held,
/// until the writer catches up, so intake slows down rather than memory growing or records being lost.
public final class Recorder: Sendable {
    private struct Waiter {
        var count: Int
        var filter: RecordFilter
        var continuation: CheckedContinuation<[RecordedRequest], any Error>
        /// How many records in the ring match `filter`, kept up to date as records come and go, so a new record
        /// costs a waiter one `matches` call rather than a scan of the ring.
        var matched: Int
    }

    private struct State {
        var ring: [StoredRecord?]
        var head = 0          // index of the oldest record
        var stored = 0        // how many ring slots hold records
        var lastSeq: UInt64 = 0
        /// Everything counted since start; `clear()` moves `clearedTotals` up to it instead of resetting it.
        var totals = RecorderTotals()
        var clearedTotals = RecorderStatistics()
        /// Followers waiting for a record after the one they have read (`waitForNews`).
        var followers: [UInt64: CheckedContinuation<Void, Never>] = [:]
        var isShutDown = false
        var waiters: [UInt64: Waiter] = [:]
        var nextID: UInt64 = 0
        var clearedThrough: UInt64 = 0   // `clear` forgets records up to here, in the file's view too

        /// Puts `record` in the ring; returns the record it pushed out, for the caller to release after the lock.
        mutating func insert(_ record: StoredRecord) -> StoredRecord? {
            let capacity = ring.count
            if stored < capacity {
                ring[(head + stored) % capacity] = record
                stored += 1
                return nil
            }
            let evicted = ring[head]
            ring[head] = record
            head = (head + 1) % capacity
            return evicted
        }

        /// The stored record numbered `seq`, if the ring still holds it.
        func record(seq: UInt64) -> StoredRecord? {
            guard stored > 0, seq >= 1, seq <= lastSeq else { return nil }
            let oldest = lastSeq - UInt64(stored) + 1
            guard seq >= oldest else { return nil }
            return ring[(head + Int(seq - oldest)) % ring.count]
        }

        func ordered() -> [RecordedRequest] {
            (0..<stored).compactMap { ring[(head + $0) % ring.count]?.record }
        }
    }

    private let state: Locked<State>
    /// On once a follower has read records: from then on storing a record drops the line of the one leaving
    /// ``sharedLineWindow``, and the file writer hands the lines it encodes to followers.
    let lineSharing: LineSharing
    /// How many of the newest records keep their JSON line once a follower encoded it (~1.3 KB each): enough for
    /// followers within a few batches of each other to share every line.
    static let sharedLineWindow: UInt64 = 8_192
    private let writer: RecordFileWriter?
    private let storeWriter: RecordStoreWriter?
    /// The JSON Lines file every record is appended to, when there is one (searches page into it).
    public let filePath: String?
    /// How many records the memory ring keeps; older ones remain only in the file.
    public let memoryLimit: Int
    /// Where each block of records starts in the file, so search pages do not re-read it from the start.
    let fileIndex: RecordFileIndex

    /// Makes a recorder keeping at most `memoryLimit` records in memory and, when `filePath` is set,
    /// appending every record to that JSON Lines file. An existing file is continued: a torn last line is cut off
    /// and numbering goes on after its highest `seq` (both said on stderr). `synchronousFile` (`--record-sync`)
    /// makes `store(_:whenWritten:)` hold each answer until its record's line is written.
    ///
    /// `store`, when set, receives every record too, in batches from its own thread (`--store`); with
    /// `synchronousStore` an answer also waits until its record's batch is committed there.
    public convenience init(memoryLimit: Int = 50_000, filePath: String? = nil, synchronousFile: Bool = false,
                            store: (any RecordStore)? = nil, synchronousStore: Bool = false) throws(RecorderError) {
        try self.init(memoryLimit: memoryLimit, filePath: filePath, fileQueueLimit: RecordFileWriter.defaultQueueLimit,
                      synchronousFile: synchronousFile, store: store, synchronousStore: synchronousStore)
    }

    /// `init(memoryLimit:filePath:)` with the file writer's queue limit, how much it holds for an unwritable file,
    /// the system calls it makes, and a hook run before each batch it writes.
    init(memoryLimit: Int, filePath: String?, fileQueueLimit: Int,
         heldBytesLimit: Int = RecordFileWriter.defaultHeldBytesLimit, synchronousFile: Bool = false,
         fileOperations: RecordFileAppender.FileOperations = .system,
         beforeFileBatch: (@Sendable () -> Void)? = nil,
         store: (any RecordStore)? = nil, synchronousStore: Bool = false) throws(RecorderError) {
        guard memoryLimit > 0 else { throw .invalidMemoryLimit(memoryLimit) }
        self.memoryLimit = memoryLimit
        self.filePath = filePath
        let fileIndex = RecordFileIndex()
        self.fileIndex = fileIndex
        let lineSharing = LineSharing()
        self.lineSharing = lineSharing
        let writer = try filePath.map { path throws(RecorderError) in
            try RecordFileWriter(path: path, queueLimit: fileQueueLimit, heldBytesLimit: heldBytesLimit,
                                 synchronous: synchronousFile, operations: fileOperations, beforeBatch: beforeFileBatch,
                                 fileChanged: { [fileIndex] in fileIndex.reset() }, lineSharing: lineSharing)
        }
        self.writer = writer
        storeWriter = store.map { RecordStoreWriter(store: $0, synchronous: synchronousStore) }
        var initial = State(ring: Array(repeating: nil, count: memoryLimit))
        if let writer, let path = filePath {
            let recovery = writer.recovery
            initial.lastSeq = recovery.highestSeq
            if recovery.trimmedBytes > 0 {
                Self.say("\(path) ended in a torn line (\(recovery.trimmedBytes) bytes without a newline, left by a crash "
                         + "or a full disk); cut it off")
            }
            if recovery.highestSeq > 0 {
                Self.say("continuing \(path) after seq \(recovery.highestSeq)")
            }
        }
        self.state = Locked(initial)
    }

    private static func say(_ text: String) {
        FileHandle.standardError.write(Data("mockapns: \(text)\n".utf8))
    }

    /// The record file's state (writable or not, records lost), or nil without a file.
    public var fileStatus: RecordFileStatus? { writer?.status }

    /// Whether the record file is failing (disk full, I/O error): no answer should claim success meanwhile.
    public var fileIsUnwritable: Bool { writer?.status.isUnwritable ?? false }

    /// Whether answers wait for their record's line to be written (`--record-sync`).
    public var writesBeforeAnswering: Bool { (writer?.synchronous ?? false) || (storeWriter?.synchronous ?? false) }

    /// The record store's state (taking records or not, records lost), or nil without a store (`--store`).
    public var storeStatus: RecordFileStatus? { storeWriter?.status }

    /// Where the record store writes, for messages (no secrets), or nil without a store.
    public var storeLabel: String? { storeWriter?.label }

    /// The record store writer's progress (batches, records, commit times, batch sizes, queue depth, records
    /// pruned), or nil without a store.
    public var storeProgress: RecordStoreProgress? { storeWriter?.progress }

    /// Counts records retention pruned from the store, for `/metrics` (the pruner calls it after each round).
    public func countStorePruned(_ records: Int) {
        storeWriter?.countPruned(records)
    }

    /// Whether the record store refuses records (database down): no answer should claim success meanwhile.
    public var storeIsUnwritable: Bool { storeWriter?.status.isUnwritable ?? false }

    /// Whether the file or the store cannot take records: the pipeline answers 500 instead of success meanwhile.
    public var cannotRecord: Bool { fileIsUnwritable || storeIsUnwritable }

    /// Numbers `record` (its `seq` is replaced), stores it, and hands it to the file, subscribers and waiters.
    /// Returns the record as stored.
    @discardableResult
    public func append(_ record: RecordedRequest) -> RecordedRequest {
        store(record).record
    }

    /// `append`, returning the shared stored record rather than a copy of it (the pipeline's path).
    @discardableResult
    func store(_ record: consuming RecordedRequest) -> StoredRecord {
        store(consume record, whenWritten: nil)
    }

    /// `store`, with an action run once the record's line is in the file (true) or known lost (false), from the
    /// file writer's thread; at once (true) when there is no file.
    @discardableResult
    func store(_ record: consuming RecordedRequest, whenWritten: RecordFileWriter.Completion?) -> StoredRecord {
        // Only numbering and hand-offs under the lock, which every loop shares: the record is boxed before it,
        // and the one it pushes out of the ring (whose fields may be freed with it) is released after it.
        let status = record.response.status
        let reason = record.response.reason
        let pushType = record.header("apns-push-type")
        let duration = record.durationMicros
        // The pipeline sets `lint` before storing only for flagged connections, so this is a cheap check.
        let churn = !record.lint.isEmpty && record.lint.contains { $0.id == ConnectionChurnMonitor.findingID }
        let shared = StoredRecord(consume record)   // moved, not copied: the record is a value of many reference-counted fields
        var woken: [(CheckedContinuation<[RecordedRequest], any Error>, [RecordedRequest])] = []
        var evicted: StoredRecord?
        var leavingWindow: StoredRecord?
        defer {
            // Released here, outside the lock: the record pushed out of the ring, and the shared line of the one
            // that just left the followers' window (only once some follower has encoded lines).
            withExtendedLifetime(evicted) {}
            if let leavingWindow { _ = leavingWindow.dropLine() }
        }
        var fileQueueFull = false
        var storeQueueFull = false
        // `--record-sync`: the answer waits for each synchronous writer; with two, for both.
        var fileCompletion: RecordFileWriter.Completion?
        var storeCompletion: RecordFileWriter.Completion?
        if let whenWritten {
            let fileWaits = writer?.synchronous == true, storeWaits = storeWriter?.synchronous == true
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
        let followers: [UInt64: CheckedContinuation<Void, Never>] = state.withLock { state in
            state.lastSeq += 1
            shared.number(state.lastSeq)
            evicted = state.insert(shared)
            if lineSharing.isOn { leavingWindow = state.record(seq: state.lastSeq &- Self.sharedLineWindow) }
            fileQueueFull = writer?.enqueue(shared, completion: fileCompletion) ?? false   // under the lock: file in `seq` order
            storeQueueFull = storeWriter?.enqueue(shared, completion: storeCompletion) ?? false
            state.totals.statistics.count(status: status, reason: reason, pushType: pushType, connectionChurn: churn)
            state.totals.durations.add(micros: duration)
            if !state.waiters.isEmpty {
                let added = shared.record, dropped = evicted?.record
                for (id, var waiter) in state.waiters {
                    if waiter.filter.matches(added) { waiter.matched += 1 }
                    if let dropped, waiter.filter.matches(dropped) { waiter.matched -= 1 }
                    if waiter.matched >= waiter.count {
                        woken.append((waiter.continuation, state.ordered().filter(waiter.filter.matches)))
                        state.waiters[id] = nil
                    } else {
                        state.waiters[id] = waiter
                    }
                }
            }
            guard !state.followers.isEmpty else { return [:] }
            defer { state.followers = [:] }
            return state.followers
        }
        // Followers read and encode on their own tasks; this thread only wakes those waiting for news.
        for continuation in followers.values { continuation.resume() }
        for (continuation, records) in woken { continuation.resume(returning: records) }   // linted by the waiter
        if fileQueueFull { writer?.waitForRoom() }   // a slow disk holds this thread back, with no lock held
        if storeQueueFull { storeWriter?.waitForRoom() }   // so does a slow database
        if fileCompletion == nil, storeCompletion == nil, let whenWritten { whenWritten(true) }
        return shared
    }

    /// The records in memory that match `filter`, oldest first (`limit` keeps the newest).
    public func records(matching filter: RecordFilter = RecordFilter()) -> [RecordedRequest] {
        filter.apply(to: state.withLock { $0.ordered() }).map { $0.withLint() }
    }

    /// The record numbered `seq`, while it is still in memory.
    public func record(seq: UInt64) -> RecordedRequest? {
        let record: RecordedRequest? = state.withLock { state in
            guard state.stored > 0, seq >= 1, seq <= state.lastSeq else { return nil }
            let oldest = state.lastSeq - UInt64(state.stored) + 1
            guard seq >= oldest else { return nil }
            return state.ring[(state.head + Int(seq - oldest)) % state.ring.count]?.record
        }
        return record?.withLint()
    }

    /// The stored record numbered `seq`, while the ring holds it.
    func storedRecord(seq: UInt64) -> StoredRecord? {
        state.withLock { $0.record(seq: seq) }
    }

    /// Up to `limit` records numbered after `seq` that are still in memory, oldest first: what a poller that
    /// has seen everything up to `seq` has not seen yet (records already pushed out of the ring are not returned;
    /// compare with ``lastSequence`` to count them). Lint is not filled in.
    public func records(after seq: UInt64, limit: Int) -> [RecordedRequest] {
        guard limit > 0 else { return [] }
        return state.withLock { state -> [RecordedRequest] in
            guard state.stored > 0, seq < state.lastSeq else { return [] }
            let oldest = state.lastSeq - UInt64(state.stored) + 1
            let first = max(seq + 1, oldest)
            let count = Int(min(UInt64(limit), state.lastSeq - first + 1))
            let start = Int(first - oldest)
            return (0..<count).compactMap { state.ring[(state.head + start + $0) % state.ring.count]?.record }
        }
    }

    /// The newest record whose response carried `apnsID` (case-insensitive).
    public func record(apnsID: String) -> RecordedRequest? {
        let wanted = apnsID.lowercased()
        return state.withLock { $0.ordered() }.last { $0.response.apnsID?.lowercased() == wanted }?.withLint()
    }

    /// Forgets the records in memory and resets the statistics; numbering goes on, the file is kept.
    public func clear() {
        state.withLock { state in
            state.ring = Array(repeating: nil, count: state.ring.count)
            state.head = 0
            state.stored = 0
            state.clearedTotals = state.totals.statistics
            state.clearedThrough = state.lastSeq
            for id in state.waiters.keys { state.waiters[id]?.matched = 0 }
        }
    }

    /// Forgets the oldest records in memory that `retention` lets go of (past its count, or received before its
    /// time), as if pushed out of the ring: a record file keeps them. Returns how many were forgotten.
    @discardableResult
    public func pruneMemory(_ retention: RecordRetention) -> Int {
        var released: [StoredRecord] = []
        defer { withExtendedLifetime(released) {} }   // freed after the lock
        return state.withLock { state in
            while state.stored > 0, let oldest = state.ring[state.head] {
                let pastCount = retention.keepNewest.map { state.stored > $0 } ?? false
                let pastAge = retention.receivedBeforeMillis.map { oldest.base.receivedAtMillis < $0 } ?? false
                guard pastCount || pastAge else { break }
                let record = oldest.record
                for id in state.waiters.keys where state.waiters[id]?.filter.matches(record) == true {
                    state.waiters[id]?.matched -= 1
                }
                released.append(oldest)
                state.ring[state.head] = nil
                state.head = (state.head + 1) % state.ring.count
                state.stored -= 1
            }
            return released.count
        }
    }

    /// The records in memory, oldest first, without lint; and the numbers bounding what a search may read from
    /// the file: records after `clearedThrough` and before `oldestInMemory` live only there.
    func snapshot() -> (records: [RecordedRequest], oldestInMemory: UInt64, clearedThrough: UInt64) {
        state.withLock { state in
            (state.ordered(), state.lastSeq - UInt64(state.stored) + 1, state.clearedThrough)
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
    var waiterCount: Int { state.withLock { $0.waiters.count } }

    /// The number of the last record (0 when none yet).
    public var lastSequence: UInt64 { state.withLock { $0.lastSeq } }

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
    func read(after cursor: UInt64, limit: Int) -> (skipped: ClosedRange<UInt64>?, records: [StoredRecord], last: UInt64) {
        state.withLock { state in
            let cursor = max(cursor, state.clearedThrough)
            // A cursor from the wire (`since`) may be any number: nothing lies after one at or past the last record,
            // and below it `cursor + 1` cannot overflow.
            guard cursor < state.lastSeq else { return (nil, [], state.lastSeq) }
            let oldest = state.lastSeq - UInt64(state.stored) + 1
            var skipped: ClosedRange<UInt64>?
            if cursor + 1 < oldest { skipped = (cursor + 1)...(oldest - 1) }
            let first = max(cursor + 1, oldest)
            guard state.stored > 0, first <= state.lastSeq, limit > 0 else { return (skipped, [], state.lastSeq) }
            let count = Int(min(UInt64(limit), state.lastSeq - first + 1))
            let start = Int(first - oldest)
            let records = (0..<count).compactMap { state.ring[(state.head + start + $0) % state.ring.count] }
            return (skipped, records, state.lastSeq)
        }
    }

    /// Returns once a record after `cursor` exists, the recorder shuts down, `timeout` passes or the task is
    /// cancelled. The loop thread that stores the next record resumes every waiting follower at once.
    func waitForNews(after cursor: UInt64, timeout: Duration) async {
        let id = state.withLock { state -> UInt64 in
            state.nextID += 1
            return state.nextID
        }
        let timer = Task { [weak self] in
            try? await Task.sleep(for: timeout)
            self?.wake(follower: id)
        }
        defer { timer.cancel() }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = state.withLock { state -> Bool in
                    if state.lastSeq > cursor || state.isShutDown || Task.isCancelled { return true }
                    state.followers[id] = continuation
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            wake(follower: id)
        }
    }

    /// Makes every follower waiting for news return now (an empty batch), so its owner can check whether to stop:
    /// what a control plane shutting down its live streams calls.
    public func wakeFollowers() {
        let followers = state.withLock { state in
            defer { state.followers = [:] }
            return Array(state.followers.values)
        }
        for continuation in followers { continuation.resume() }
    }

    private func wake(follower id: UInt64) {
        state.withLock { $0.followers.removeValue(forKey: id) }?.resume()
    }

    /// With a record file and followers, the last `seq` whose line the file writer has encoded (and offered to
    /// followers): a follower at the head reads up to there, sharing the writer's lines instead of encoding its own.
    /// Nil without a file, before any follower, or once shut down.
    var linesReadyThrough: UInt64? {
        guard let writer, lineSharing.isOn, !isShutDown else { return nil }
        return writer.encodedThrough.load(ordering: .acquiring)
    }

    /// Whether `shutdown()` has run: followers stop once they have read what is left.
    var isShutDown: Bool { state.withLock { $0.isShutDown } }

    /// Waits until at least `count` records in memory match `filter`, and returns them (oldest first).
    /// Throws `RecorderError.timedOut` with what did arrive when `timeout` passes first.
    public func waitForRecords(
        count: Int, matching filter: RecordFilter = RecordFilter(), timeout: Duration
    ) async throws -> [RecordedRequest] {
        let id: UInt64 = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        let timeoutTask = Task { [weak self] in
            try? await Task.sleep(for: timeout)
            guard let self else { return }
            let expired: (CheckedContinuation<[RecordedRequest], any Error>, Int)? = self.state.withLock { state in
                guard let waiter = state.waiters.removeValue(forKey: id) else { return nil }
                return (waiter.continuation, state.ordered().filter(filter.matches).count)
            }
            if let (continuation, arrived) = expired {
                continuation.resume(throwing: RecorderError.timedOut(expected: count, arrived: arrived, timeout: timeout))
            }
        }
        defer { timeoutTask.cancel() }
        let records: [RecordedRequest] = try await withCheckedThrowingContinuation { continuation in
            let ready: [RecordedRequest]? = state.withLock { state in
                let matching = state.ordered().filter(filter.matches)
                if matching.count >= count { return matching }
                state.waiters[id] = Waiter(count: count, filter: filter, continuation: continuation, matched: matching.count)
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
        return records.map { $0.withLint() }   // here, on the waiter's task, not on the loop thread that woke it
    }

    /// Writes every record so far to the file (if any) and waits until it is done.
    public func flush() {
        writer?.flush()
        storeWriter?.flush()
    }

    /// Opens the record file's path again and appends there from now on (SIGHUP after a rename rotation); does
    /// nothing without a file. Records already written stay in the file that was at the path before.
    public func reopenFile() {
        writer?.reopen()
    }

    /// Flushes and closes the file, and ends every subscription.
    public func shutdown() {
        writer?.close()
        storeWriter?.close()
        let followers = state.withLock { state in
            state.isShutDown = true
            defer { state.followers = [:] }
            return Array(state.followers.values)
        }
        for continuation in followers { continuation.resume() }
    }
}

/// A numbered record, shared by the memory ring and the file writer's queue: handing it on costs one reference
/// count, where copying a `RecordedRequest` retains and later releases each of its fields.
///
/// The record itself is immutable (`base`, read in place by the file writer) and its number is kept beside it:
/// a record in a mutable class property would be copied whole on every read.
// @unchecked Sendable: `seq` is written once, in `number`, under the recorder's lock and before the record is
// published (ring, writer queue, subscribers all receive it through that lock or after it); immutable after.
final class StoredRecord: @unchecked Sendable {
    /// The record as stored, without its number (`seq` is 0 here).
    let base: RecordedRequest
    /// The record's number.
    private(set) var seq: UInt64 = 0

    /// The record's JSON line, encoded by the first follower that needed it and shared with the others, while the
    /// record is among the newest ``Recorder/sharedLineWindow`` (older lines are dropped, so followers cost at most
    /// that many lines of memory, not one per record in the ring).
    private let sharedLine = Mutex<[UInt8]?>(nil)

    init(_ record: consuming RecordedRequest) {
        base = record
    }

    /// The record's JSON line with its lint findings, newline included: encoded once (with `encoder`) for every
    /// follower, never on the loop thread. With `keep` false (a record about to leave the shared window) the line
    /// is encoded for this caller only.
    ///
    /// The lock is held while encoding, so followers reading the same batch at once wait a few microseconds for
    /// the first one's line instead of each encoding it again.
    func line(using encoder: inout JSONLineEncoder, keep: Bool) -> [UInt8] {
        guard keep else { return encodeLine(using: &encoder) }
        return sharedLine.withLock { stored in
            if let stored { return stored }
            let line = encodeLine(using: &encoder)
            stored = line
            return line
        }
    }

    /// Keeps `line` as the shared line unless one is kept already: the file writer offers the lines it encodes, so
    /// followers need not encode them again.
    func offerLine(_ line: [UInt8]) {
        sharedLine.withLock { stored in
            if stored == nil { stored = line }
        }
    }

    /// Whether the record keeps a shared line now.
    var keepsLine: Bool { sharedLine.withLock { $0 != nil } }

    /// Forgets the shared line (the record left the window followers share lines in); returns it so the caller can
    /// free it outside any lock.
    func dropLine() -> [UInt8]? {
        sharedLine.withLock { stored in
            defer { stored = nil }
            return stored
        }
    }

    /// A fresh line for this record, in an array of its own size: `encoder` keeps its buffer for the next one
    /// (handing out the encoder's own array would make its next use copy the whole capacity).
    private func encodeLine(using encoder: inout JSONLineEncoder) -> [UInt8] {
        encoder.bytes.removeAll(keepingCapacity: true)
        encode(into: &encoder)
        return encoder.bytes.withUnsafeBufferPointer { Array($0) }
    }

    /// The record, with its `seq`.
    var record: RecordedRequest {
        var numbered = base
        numbered.seq = seq
        return numbered
    }

    /// Gives the record its number (the recorder, under its lock, before anyone else sees the record).
    func number(_ seq: UInt64) {
        self.seq = seq
    }

    /// Appends the record's JSON line, with its lint findings, to `encoder`.
    func encode(into encoder: inout JSONLineEncoder) {
        let lint = encoder.lintFindings(for: base)
        encoder.encode(base, seq: seq, lint: lint)
    }
}
