import Foundation

/// Follows a recorder by position: each `next()` returns the records after the last one it returned, waiting until
/// there are some. The cursor is a `seq`, so any number of followers cost the recorder's loop threads nothing per
/// record; each follower reads at its own pace, in batches.
///
/// A follower that falls behind the memory ring continues from the `--record` file when the recorder has one
/// (the records are there, in order); without a file it skips to the oldest record in memory and the batch names
/// the skipped range, so no reader is ever silently short of records.
public struct RecordFollower {
    private let recorder: Recorder
    /// The last `seq` handed out.
    public private(set) var position: UInt64
    private let batchLimit: Int
    private let coalescing: Duration
    /// When set, a read that finds more than this many records waiting passes over the older ones (reported as
    /// `FollowBatch.elided`): for a view that shows only the newest rows, so a burst costs it (and the server)
    /// at most this many records per read.
    public var keepNewest: Int?

    /// Follows `recorder` from the record after `seq` (`recorder.lastSequence` for "from now on").
    /// - Parameters:
    ///   - batchLimit: the most records one `next()` returns.
    ///   - coalescing: after a batch smaller than `batchLimit`, how long `next()` lets records gather before reading
    ///     again: it bounds how often a follower is woken (and so its cost to the server) whatever the push rate,
    ///     at the price of that much latency.
    public init(recorder: Recorder, after seq: UInt64, batchLimit: Int = 1024, coalescing: Duration = .milliseconds(20)) {
        self.recorder = recorder
        self.position = seq
        self.batchLimit = max(1, batchLimit)
        self.coalescing = coalescing
    }

    private var lastBatchWasFull = true
    /// How long this `next()` has waited for the file writer to encode records that are already stored.
    private var waitedForWriter: Duration = .zero
    /// The longest a follower waits for the file writer's lines before encoding records itself.
    private static let writerPatience: Duration = .milliseconds(250)

    /// The next records (possibly after a skipped range), waiting for them; an empty batch when `timeout` passes
    /// first (a heartbeat's chance); nil once the recorder has shut down and everything was read, or the task is
    /// cancelled.
    public mutating func next(timeout: Duration = .seconds(3600)) async -> FollowBatch? {
        if !lastBatchWasFull, (try? await Task.sleep(for: coalescing)) == nil { return nil }
        var timedOut = false
        while !Task.isCancelled {
            var elided: ClosedRange<UInt64>?
            if let keepNewest, keepNewest >= 0 {
                let last = recorder.lastSequence
                if last > position, last - position > UInt64(keepNewest) {
                    elided = (position + 1)...(last - UInt64(keepNewest))
                    position = last - UInt64(keepNewest)
                }
            }
            var limit = batchLimit
            if let ready = recorder.linesReadyThrough, waitedForWriter < Self.writerPatience {
                // With a record file, the writer encodes every line anyway: read only what it has encoded and share
                // its lines, rather than encode them a second time. It runs at least every 100 ms; a writer stuck
                // longer (a stalled disk) is not waited for.
                if ready <= position, recorder.lastSequence > position {
                    if (try? await Task.sleep(for: coalescing)) == nil { return nil }
                    waitedForWriter += coalescing
                    continue
                }
                if ready > position { limit = Int(min(UInt64(batchLimit), ready - position)) }
            }
            waitedForWriter = .zero
            let read = recorder.read(after: position, limit: limit)
            if let skipped = read.skipped {
                // Behind the memory ring: the file has those records, in order, unless it was rotated away.
                if let fromFile = fileRecords(in: skipped), let first = fromFile.first, let last = fromFile.last {
                    position = last.seq
                    lastBatchWasFull = true
                    let missing = first.seq > skipped.lowerBound ? skipped.lowerBound...(first.seq - 1) : nil
                    var batch = FollowBatch(skipped: missing, records: fromFile, position: position)
                    batch.elided = elided
                    return batch
                }
                position = skipped.upperBound
                lastBatchWasFull = true
                if let last = read.records.last {
                    position = last.seq
                    lastBatchWasFull = read.records.count == batchLimit
                }
                var batch = FollowBatch(skipped: skipped, records: followed(read.records, last: read.last), position: position)
                batch.elided = elided
                return batch
            }
            if let last = read.records.last {
                position = last.seq
                lastBatchWasFull = read.records.count == batchLimit
                var batch = FollowBatch(records: followed(read.records, last: read.last), position: position)
                batch.elided = elided
                return batch
            }
            if recorder.isShutDown { return nil }
            if timedOut { return FollowBatch(records: [], position: position) }
            await recorder.waitForNews(after: position, timeout: timeout)
            timedOut = recorder.lastSequence <= position   // woken without news: the timeout (or a shutdown)
        }
        return nil
    }

    /// `records` as followed records: those within the recorder's shared-line window (counted back from `last`, the
    /// newest record when they were read) keep their line for the other followers; older ones are encoded for this
    /// follower alone, so a follower far behind does not pin lines in memory. (A record that leaves the window
    /// between this read and its encoding keeps its line until the ring lets it go: bounded, and rare.)
    private func followed(_ records: [NumberedRecord], last: UInt64) -> [FollowedRecord] {
        recorder.lineSharing.turnOn()
        let windowStart = last > RecordFeed.sharedLineWindow ? last - RecordFeed.sharedLineWindow : 0
        return records.map { FollowedRecord($0, keepLine: $0.seq > windowStart) }
    }

    /// Up to `batchLimit` records of `range` read back from the record file, or nil without a file. Reading the
    /// disk here is fine: followers run on their own tasks, never on a loop thread.
    private func fileRecords(in range: ClosedRange<UInt64>) -> [FollowedRecord]? {
        guard recorder.filePath != nil else { return nil }
        return (try? recorder.fileRecords(in: range, limit: batchLimit)) ?? []
    }
}
