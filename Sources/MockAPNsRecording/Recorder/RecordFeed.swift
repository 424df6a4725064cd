/// Who is told about new records: `waitForRecords` waiters (each waiting for a count of matches) and followers
/// waiting for news (the live stream, `mockapns tail`, the dashboard), plus the window of newest records whose JSON
/// lines followers share.
///
/// A value with no lock of its own: the ``Recorder`` keeps it under its one lock, beside the ``RecordRing``, so a
/// waiter's count of matches always agrees with what the ring holds and no follower misses the record that lands
/// while it registers. Its methods only decide who to wake; the recorder resumes them after letting go of the lock.
struct RecordFeed {
    /// A continuation to resume with the records a waiter waited for.
    typealias WokenWaiter = (continuation: CheckedContinuation<[RecordedRequest], any Error>, records: [RecordedRequest])

    /// How many of the newest records keep their JSON line once a follower encoded it (~1.3 KB each): enough for
    /// followers within a few batches of each other to share every line.
    static let sharedLineWindow: UInt64 = 8_192

    private struct Waiter {
        var count: Int
        var filter: RecordFilter
        var continuation: CheckedContinuation<[RecordedRequest], any Error>
        /// How many records in the ring match `filter`, kept up to date as records come and go, so a new record
        /// costs a waiter one `matches` call rather than a scan of the ring.
        var matched: Int
    }

    private var waiters: [UInt64: Waiter] = [:]
    /// Followers waiting for a record after the one they have read.
    private var followers: [UInt64: CheckedContinuation<Void, Never>] = [:]
    private var lastID: UInt64 = 0
    /// Whether the recorder has shut down: followers stop once they have read what is left.
    private(set) var isShutDown = false

    /// How many waiters are waiting.
    var waiterCount: Int { waiters.count }

    /// Whether a new record has anyone to count it or to wake: checked before asking, so that storing a record
    /// nobody waits for costs no call.
    var hasWaiters: Bool { !waiters.isEmpty }
    /// Whether any follower waits for news.
    var hasFollowers: Bool { !followers.isEmpty }

    /// A number for a new waiter or follower, unique for the recorder's life.
    mutating func nextID() -> UInt64 {
        lastID += 1
        return lastID
    }

    /// Counts `added` (just put in `ring`) and `evicted` (just pushed out) against every waiter; returns the waiters
    /// now satisfied, with their records, and takes them off the list.
    mutating func recordAdded(_ added: NumberedRecord, evicted: NumberedRecord?, in ring: RecordRing) -> [WokenWaiter] {
        guard !waiters.isEmpty else { return [] }
        var woken: [WokenWaiter] = []
        let record = added.record, dropped = evicted?.record
        for (id, var waiter) in waiters {
            if waiter.filter.matches(record) { waiter.matched += 1 }
            if let dropped, waiter.filter.matches(dropped) { waiter.matched -= 1 }
            if waiter.matched >= waiter.count {
                woken.append((waiter.continuation, ring.ordered().filter(waiter.filter.matches)))
                waiters[id] = nil
            } else {
                waiters[id] = waiter
            }
        }
        return woken
    }

    /// The record whose shared line to drop now that record `lastSeq` is stored: the one just past the window.
    static func lineLeavingWindow(in ring: RecordRing) -> NumberedRecord? {
        ring.record(seq: ring.lastSeq &- sharedLineWindow)
    }

    /// Uncounts `record`, which retention took out of the ring.
    mutating func recordForgotten(_ record: RecordedRequest) {
        for id in waiters.keys where waiters[id]?.filter.matches(record) == true {
            waiters[id]?.matched -= 1
        }
    }

    /// Every waiter's count starts again from nothing (the ring was cleared).
    mutating func ringCleared() {
        for id in waiters.keys { waiters[id]?.matched = 0 }
    }

    /// Registers waiter `id` for `count` records matching `filter`, unless `ring` already holds them: then returns them.
    mutating func addWaiter(id: UInt64, count: Int, filter: RecordFilter, in ring: RecordRing,
                            continuation: CheckedContinuation<[RecordedRequest], any Error>) -> [RecordedRequest]? {
        let matching = ring.ordered().filter(filter.matches)
        if matching.count >= count { return matching }
        waiters[id] = Waiter(count: count, filter: filter, continuation: continuation, matched: matching.count)
        return nil
    }

    /// Takes waiter `id` off the list (its time ran out); nil when it was already woken.
    mutating func removeWaiter(id: UInt64) -> CheckedContinuation<[RecordedRequest], any Error>? {
        waiters.removeValue(forKey: id)?.continuation
    }

    /// Registers follower `id` to be woken by the next record, unless one after `cursor` exists already, the
    /// recorder has shut down or the task is cancelled: then returns false and the follower goes on at once.
    mutating func addFollower(id: UInt64, after cursor: UInt64, lastSeq: UInt64,
                              continuation: CheckedContinuation<Void, Never>) -> Bool {
        if lastSeq > cursor || isShutDown || Task.isCancelled { return false }
        followers[id] = continuation
        return true
    }

    /// Takes follower `id` off the list (its time ran out, or its task was cancelled); nil when it was already woken.
    mutating func removeFollower(id: UInt64) -> CheckedContinuation<Void, Never>? {
        followers.removeValue(forKey: id)
    }

    /// Takes every waiting follower off the list, to be woken.
    mutating func takeFollowers() -> [CheckedContinuation<Void, Never>] {
        guard !followers.isEmpty else { return [] }
        defer { followers = [:] }
        return Array(followers.values)
    }

    /// Marks the feed shut down and takes every waiting follower off the list, to be woken for the last time.
    mutating func shutDown() -> [CheckedContinuation<Void, Never>] {
        isShutDown = true
        return takeFollowers()
    }
}
