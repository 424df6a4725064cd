import Foundation

/// Hands records to a ``BatchSink`` in batches from one consuming task, so event loops never wait on a disk or a
/// database: the recorder's one writer shape, for the JSON Lines file and for a record store alike.
///
/// Loop threads only enqueue (a short lock). The consuming task wakes when signalled and at least every 100 ms (the
/// flush interval: what a `kill -9` can lose), takes everything queued, and has the sink write it. A batch the sink
/// cannot write (disk full, database down) stays held in the sink and is tried again; past the sink's bound new
/// records are counted lost. While it fails, `status.isUnwritable` is set (the pipeline answers 500 instead of
/// success), and each change of state is said once on stderr.
///
/// The queue is bounded: once `queueLimit` records wait, `enqueue` tells its caller to `waitForRoom` (outside any
/// lock of its own), which holds that thread until the consumer takes the queue. A sink slower than the traffic
/// thus slows the event loops down instead of growing memory without bound or dropping records.
///
/// `flush`, `reopen` and `close` block their caller until the consumer has done what they ask; the consumer itself
/// never blocks a thread waiting for them, and awaits the sink's asynchronous work (a database round trip) rather
/// than waiting for it on a thread.
final class BatchWriter<Sink: BatchSink>: Sendable {
    private struct State {
        var pending: [NumberedRecord] = []
        /// `--record-sync`: actions to run once the record numbered `seq` is written, in `seq` order.
        var completions: [(seq: UInt64, action: WriteCompletion)] = []
        var enqueued: UInt64 = 0
        /// Records written, held for an unwritable sink, or lost: what `flush` waits for.
        var settled: UInt64 = 0
        var closing = false
        var finished = false
        var waitingForRoom = 0
        var warnedFull = false
        /// `reopen()` calls so far, and how many the consumer has carried out.
        var reopensRequested: UInt64 = 0
        var reopensDone: UInt64 = 0
        /// The consuming task, while it waits for work.
        var consumer: CheckedContinuation<Void, Never>?

        /// Whether the consumer has something to do before its next interval.
        var hasWork: Bool { !pending.isEmpty || closing || reopensRequested != reopensDone }

        /// Queues `record`; returns how many records wait now.
        mutating func add(_ record: NumberedRecord, completion: WriteCompletion?) -> Int {
            pending.append(record)
            enqueued += 1
            if let completion { completions.append((record.seq, completion)) }
            return pending.count
        }
    }

    /// What the consumer took from the queue in one round.
    private struct Round {
        var batch: [NumberedRecord]
        var closing: Bool
        var reopens: UInt64
        var warnFull: Bool
    }

    // `condition` guards `state`; it wakes callers blocked in `waitForRoom`, `flush`, `reopen` and `close` when the
    // consumer makes progress. `state` is nonisolated(unsafe) because every access below holds `condition`.
    private let condition = NSCondition()
    private nonisolated(unsafe) var state = State()
    /// Where the records go.
    let sink: Sink
    private let queueLimit: Int
    /// Whether each record is written before it is answered: the consumer starts a batch as soon as one arrives.
    let synchronous: Bool
    /// Whether the sink can be written, and what was lost.
    let status = RecordFileStatus()

    /// The consumer's own thread, when it has one.
    private let thread: ThreadTaskExecutor?

    /// Starts the consuming task: on a thread of its own named `threadName` when given (for a sink whose writes
    /// block a thread, such as the file's `pwrite`, so Swift's shared pool is never held by a slow disk), else on the
    /// shared pool (a sink that awaits its I/O).
    init(sink: Sink, queueLimit: Int, synchronous: Bool, threadName: String? = nil) {
        self.sink = sink
        self.queueLimit = max(1, queueLimit)
        self.synchronous = synchronous
        let thread = threadName.map(ThreadTaskExecutor.init(name:))
        self.thread = thread
        Task(executorPreference: thread) { [self] in
            await consume()
            thread?.stop()   // this is its last job
        }
        Task { [self] in await tick() }
    }

    /// Records waiting for the consumer to take them (the bounded queue's depth).
    var queued: Int {
        condition.lock()
        defer { condition.unlock() }
        return state.pending.count
    }

    /// Queues a record (`completion`, if given, runs once it is written or lost); returns at once. Returns true when
    /// the queue has reached its limit: the caller should `waitForRoom()` once it has let go of its own locks. The
    /// caller enqueues in `seq` order.
    func enqueue(_ record: NumberedRecord, completion: WriteCompletion? = nil) -> Bool {
        condition.lock()
        let count = state.add(record, completion: completion)   // one access to `state`: each is checked at run time
        condition.unlock()
        // Waking takes the lock again, rather than carrying the continuation out of it: a continuation is a
        // resilient type whose every copy is a runtime call, and most records wake nobody.
        if count >= sink.wakeThreshold || count >= queueLimit || (synchronous && count == 1) { wakeConsumer() }
        return count >= queueLimit
    }

    /// Holds the calling thread while the queue is at its limit, until the consumer takes it (or stops).
    func waitForRoom() {
        condition.lock()
        if state.pending.count >= queueLimit && !state.finished {
            state.waitingForRoom += 1
            wakeConsumerLocked()
            while state.pending.count >= queueLimit && !state.finished { condition.wait() }
            state.waitingForRoom -= 1
        }
        condition.unlock()
    }

    /// Blocks until every record enqueued so far is written, or known unwritable (held or lost).
    func flush() {
        condition.lock()
        let target = state.enqueued
        wakeConsumerLocked()
        while state.settled < target && !state.finished { condition.wait() }
        condition.unlock()
    }

    /// Makes the sink open its destination again from the next batch on (``BatchSink/reopen()``); blocks until done.
    func reopen() {
        condition.lock()
        state.reopensRequested += 1
        let target = state.reopensRequested
        wakeConsumerLocked()
        while state.reopensDone < target && !state.finished { condition.wait() }
        condition.unlock()
    }

    /// Flushes, tries held records one last time, and stops the consumer. Idempotent.
    func close() {
        condition.lock()
        state.closing = true
        wakeConsumerLocked()
        while !state.finished { condition.wait() }
        condition.unlock()
    }

    /// Resumes the consumer if it waits for work; the caller holds `condition`. Resuming only schedules the task, so
    /// doing it under the lock costs no wait.
    private func wakeConsumerLocked() {
        let consumer = state.consumer
        state.consumer = nil
        consumer?.resume()
    }

    /// Wakes the consumer every 100 ms until it finishes: the flush interval, and the pace of retries while the
    /// sink fails.
    private func tick() async {
        while !isFinished {
            try? await Task.sleep(for: .milliseconds(100))
            wakeConsumer()
        }
    }

    /// Resumes the consumer if it waits for work.
    private func wakeConsumer() {
        condition.lock()
        wakeConsumerLocked()
        condition.unlock()
    }

    private var isFinished: Bool {
        condition.lock()
        defer { condition.unlock() }
        return state.finished
    }

    /// Suspends the consumer until there is work or the next tick.
    private func waitForWork() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            condition.lock()
            let now = state.hasWork
            if !now { state.consumer = continuation }
            condition.unlock()
            if now { continuation.resume() }
        }
    }

    /// Takes everything queued, and lets callers waiting for room go on.
    private func takeRound() -> Round {
        condition.lock()
        let round = Round(batch: state.pending, closing: state.closing, reopens: state.reopensRequested,
                          warnFull: state.waitingForRoom > 0 && !state.warnedFull)
        state.pending.removeAll(keepingCapacity: true)
        if round.warnFull { state.warnedFull = true }
        let someoneWaits = state.waitingForRoom > 0
        condition.unlock()
        if someoneWaits { condition.broadcast() }   // the queue has room again
        return round
    }

    /// Counts `taken` records settled and returns the completions now due (every one at the end, when `done`); wakes
    /// blocked callers.
    private func settle(_ taken: Int, writtenThrough: UInt64, lost: [ClosedRange<UInt64>], closing: Bool,
                        reopenedThrough: UInt64) -> (due: [(seq: UInt64, action: WriteCompletion)], done: Bool, oldestWaiting: UInt64) {
        condition.lock()
        state.settled += UInt64(taken)
        var due: [(seq: UInt64, action: WriteCompletion)] = []
        if !state.completions.isEmpty {
            let count = state.completions.prefix { completion in
                completion.seq <= writtenThrough || lost.contains { $0.contains(completion.seq) }
            }.count
            due = Array(state.completions.prefix(count))
            state.completions.removeFirst(count)
        }
        state.reopensDone = max(state.reopensDone, reopenedThrough)
        let done = closing && state.pending.isEmpty
        if done {
            // `finished` is set once these have run (``finish()``): `close()` returns after every answer went out.
            due += state.completions
            state.completions = []
        }
        let oldestWaiting = state.completions.first?.seq ?? .max
        condition.unlock()
        condition.broadcast()
        return (due, done, oldestWaiting)
    }

    /// The consuming task: one round per wake-up, until `close()`.
    private func consume() async {
        var writtenSeq: UInt64 = 0
        var lostSeqs: [ClosedRange<UInt64>] = []   // records dropped, for their completions (rare: a failing sink)
        var reopenedThrough: UInt64 = 0
        while true {
            await waitForWork()
            let round = takeRound()
            if round.reopens != reopenedThrough {
                reopenedThrough = round.reopens
                sink.reopen()
            }
            if round.warnFull, let sentence = sink.fallingBehindSentence(queueLimit: queueLimit) {
                say(sentence)   // said once, from here (loop threads do no I/O)
            }
            if let first = round.batch.first, let last = round.batch.last, !sink.hold(round.batch) {
                // The sink has been unwritable for a while: memory stays bounded, and these are counted.
                status.addLost(round.batch.count)
                lostSeqs.append(first.seq...last.seq)
            }
            writing: while sink.heldCount > 0 {
                switch await sink.writeHeld() {
                case .written(let through, let count):
                    writtenSeq = through
                    if status.isUnwritable {
                        status.markWritable()
                        say(sink.recoveredSentence(written: count, lost: status.lost))
                    }
                case .failed(let through, let sentence):
                    if let through { writtenSeq = through }
                    if !status.isUnwritable {
                        status.markUnwritable()
                        say(sentence)
                    }
                    break writing
                }
            }
            status.setWaiting(sink.heldCount)
            if round.closing && sink.heldCount > 0 {
                // The last attempt was just made: what is still held never gets written.
                let held = sink.heldCount
                status.addLost(held)
                say("stopping with \(held) record(s) not written to \(sink.label) (\(status.lost) lost in all)")
                lostSeqs += sink.dropHeld()
                status.setWaiting(0)
            }
            let settled = settle(round.batch.count, writtenThrough: writtenSeq, lost: lostSeqs, closing: round.closing,
                                 reopenedThrough: reopenedThrough)
            for (seq, action) in settled.due { action(!lostSeqs.contains { $0.contains(seq) } && seq <= writtenSeq) }
            lostSeqs.removeAll { $0.upperBound < settled.oldestWaiting }
            if settled.done {
                finish()
                break
            }
            if sink.pausesAfterFailure && status.isUnwritable && !round.closing {
                try? await Task.sleep(for: .milliseconds(100))   // the retry interval
            }
        }
    }

    /// Marks the writer finished, after the last round's completions ran, and wakes `close()`.
    private func finish() {
        condition.lock()
        state.finished = true
        condition.unlock()
        condition.broadcast()
    }

    /// One line on stderr, from the consuming task.
    private func say(_ text: String) {
        FileHandle.standardError.write(Data("mockapns: \(text)\n".utf8))
    }
}
