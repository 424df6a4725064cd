import Dispatch
import Foundation
import Support

/// Hands records to a ``BatchSink`` in batches from one consuming task, so event loops never wait on a disk or a
/// database: the recorder's one writer shape, for the JSON Lines file and for a record store alike.
///
/// Loop threads only enqueue (a short lock). The consuming task wakes when signalled and at least every 100 ms (the
/// flush interval: what a `kill -9` can lose), takes everything queued, and has the sink write it. A batch the sink
/// cannot write (disk full, database down) stays held in the sink and is tried again; past the sink's bound new
/// records are counted lost. While it fails, `status.isUnwritable` is set (the pipeline answers 500 instead of
/// success), and each change of state is said once on stderr.
///
/// The queue is bounded without blocking anyone: once `queueLimit` records wait, the writer shuts its
/// ``IntakeGate``, and the transports stop reading new requests until the consumer takes the queue and opens it
/// again. A sink slower than the traffic thus slows the senders down, instead of growing memory without bound,
/// dropping records, or holding a loop thread that the sink itself may need (the store's database connection runs
/// on the same loops). What is already read when the gate shuts is still queued: at most a read's worth of requests
/// per connection past the limit.
///
/// `flush`, `reopen` and `close` come in two forms: `async` ones that suspend until the consumer has done what they
/// ask, and blocking ones for callers off any event loop (``BlockingCheck`` stops a loop thread that calls them).
final class BatchWriter<Sink: BatchSink>: Sendable {
    /// What a caller of `flush`, `reopen` or `close` waits for.
    private enum Wait {
        /// Records settled (written, held for an unwritable sink, or lost) through this count.
        case settled(UInt64)
        /// This many `reopen()` calls carried out.
        case reopened(UInt64)
        /// The consumer stopped.
        case finished
    }

    private struct State {
        var pending: [NumberedRecord] = []
        /// `--record-sync`: actions to run once the record numbered `seq` is written, in `seq` order.
        var completions: [(seq: UInt64, action: WriteCompletion)] = []
        var enqueued: UInt64 = 0
        /// Records written, held for an unwritable sink, or lost: what `flush` waits for.
        var settled: UInt64 = 0
        var closing = false
        var finished = false
        /// Whether this writer holds the intake gate shut (its queue reached its limit).
        var holdsGate = false
        var warnedFull = false
        /// `reopen()` calls so far, and how many the consumer has carried out.
        var reopensRequested: UInt64 = 0
        var reopensDone: UInt64 = 0
        /// The consuming task, while it waits for work.
        var consumer: CheckedContinuation<Void, Never>?
        /// Callers of `flush`, `reopen` and `close`, each with what resumes it.
        var waiters: [(wait: Wait, resume: @Sendable () -> Void)] = []

        /// Whether the consumer has something to do before its next interval.
        var hasWork: Bool { !pending.isEmpty || closing || reopensRequested != reopensDone }

        /// Queues `record`; returns how many records wait now.
        mutating func add(_ record: NumberedRecord, completion: WriteCompletion?) -> Int {
            pending.append(record)
            enqueued += 1
            if let completion { completions.append((record.seq, completion)) }
            return pending.count
        }

        func isMet(_ wait: Wait) -> Bool {
            switch wait {
            case .settled(let target): return finished || settled >= target
            case .reopened(let target): return finished || reopensDone >= target
            case .finished: return finished
            }
        }

        /// Takes the waiters whose wait is over.
        mutating func takeMetWaiters() -> [@Sendable () -> Void] {
            guard !waiters.isEmpty else { return [] }
            var met: [@Sendable () -> Void] = []
            var left: [(wait: Wait, resume: @Sendable () -> Void)] = []
            for waiter in waiters {
                if isMet(waiter.wait) { met.append(waiter.resume) } else { left.append(waiter) }
            }
            waiters = left
            return met
        }
    }

    /// What the consumer took from the queue in one round.
    private struct Round {
        var batch: [NumberedRecord]
        var closing: Bool
        var reopens: UInt64
        var warnFull: Bool
    }

    private let state = Locked(State())
    /// Where the records go.
    let sink: Sink
    private let queueLimit: Int
    /// Shut while the queue is at its limit; `holder` is this writer's bit of it.
    private let gate: IntakeGate
    private let holder: IntakeGate.Holder
    /// Whether each record is written before it is answered: the consumer starts a batch as soon as one arrives.
    let synchronous: Bool
    /// Whether the sink can be written, and what was lost.
    let status = RecordFileStatus()

    /// The consumer's own thread, when it has one.
    private let thread: ThreadTaskExecutor?

    /// Starts the consuming task: on a thread of its own named `threadName` when given (for a sink whose writes
    /// block a thread, such as the file's `pwrite`, so Swift's shared pool is never held by a slow disk), else on the
    /// shared pool (a sink that awaits its I/O). `gate` is shut as `holder` while `queueLimit` records wait.
    init(sink: Sink, queueLimit: Int, synchronous: Bool, gate: IntakeGate, holder: IntakeGate.Holder,
         threadName: String? = nil) {
        self.sink = sink
        self.queueLimit = max(1, queueLimit)
        self.synchronous = synchronous
        self.gate = gate
        self.holder = holder
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
        state.withLock { $0.pending.count }
    }

    /// Queues a record (`completion`, if given, runs once it is written or lost); returns at once. At the queue's
    /// limit it shuts the intake gate. The caller enqueues in `seq` order.
    func enqueue(_ record: NumberedRecord, completion: WriteCompletion? = nil) {
        let count = state.withLock { state in
            let count = state.add(record, completion: completion)
            if count >= queueLimit && !state.holdsGate {
                state.holdsGate = true
                gate.shut(by: holder)   // under the lock, so that `takeRound` cannot open it before it is shut
            }
            return count
        }
        // Waking takes the lock again, rather than carrying the continuation out of it: a continuation is a
        // resilient type whose every copy is a runtime call, and most records wake nobody.
        if count >= sink.wakeThreshold || count >= queueLimit || (synchronous && count == 1) { wakeConsumer() }
    }

    /// Suspends until every record enqueued so far is written, or known unwritable (held or lost).
    func flush() async {
        await wait { state in
            .settled(state.enqueued)
        }
    }

    /// Blocks until every record enqueued so far is written, or known unwritable (held or lost). Never on a loop.
    func flushBlocking() {
        BlockingCheck.mayBlock("flushing the \(sink.label) record writer")
        block { state in .settled(state.enqueued) }
    }

    /// Makes the sink open its destination again from the next batch on (``BatchSink/reopen()``); blocks until done.
    /// Never on a loop.
    func reopen() {
        BlockingCheck.mayBlock("reopening \(sink.label)")
        block { state in
            state.reopensRequested += 1
            return .reopened(state.reopensRequested)
        }
    }

    /// Flushes, tries held records one last time, and stops the consumer; suspends until it has. Idempotent.
    func close() async {
        await wait { state in
            state.closing = true
            return .finished
        }
    }

    /// `close()`, blocking its thread. Never on a loop.
    func closeBlocking() {
        BlockingCheck.mayBlock("closing the \(sink.label) record writer")
        block { state in
            state.closing = true
            return .finished
        }
    }

    /// Registers what `ask` returns (after it changed the state) and suspends until it is met.
    private func wait(_ ask: (inout State) -> Wait) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            register(ask) { continuation.resume() }
        }
    }

    /// Registers what `ask` returns (after it changed the state) and blocks this thread until it is met.
    private func block(_ ask: (inout State) -> Wait) {
        let done = DispatchSemaphore(value: 0)
        register(ask) { done.signal() }
        done.wait()
    }

    private func register(_ ask: (inout State) -> Wait, resume: @escaping @Sendable () -> Void) {
        let (met, consumer) = state.withLock { state -> (Bool, CheckedContinuation<Void, Never>?) in
            let wait = ask(&state)
            if state.isMet(wait) { return (true, nil) }
            state.waiters.append((wait, resume))
            let consumer = state.consumer
            state.consumer = nil
            return (false, consumer)
        }
        consumer?.resume()   // it has work now
        if met { resume() }
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
        let consumer = state.withLock { state in
            defer { state.consumer = nil }
            return state.consumer
        }
        consumer?.resume()
    }

    private var isFinished: Bool {
        state.withLock { $0.finished }
    }

    /// Suspends the consumer until there is work or the next tick.
    private func waitForWork() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state in
                let now = state.hasWork
                if !now { state.consumer = continuation }
                return now
            }
            if now { continuation.resume() }
        }
    }

    /// Takes everything queued, and opens the intake gate when this writer held it shut.
    private func takeRound() -> Round {
        var resumptions = IntakeGate.Resumptions()
        let round = state.withLock { state in
            let round = Round(batch: state.pending, closing: state.closing, reopens: state.reopensRequested,
                              warnFull: state.holdsGate && !state.warnedFull)
            state.pending.removeAll(keepingCapacity: true)
            if round.warnFull { state.warnedFull = true }
            if state.holdsGate {
                state.holdsGate = false
                resumptions = gate.open(by: holder)   // under the lock, so that `enqueue` cannot shut it first
            }
            return round
        }
        resumptions.run()   // the connections that stopped reading go on
        return round
    }

    /// Counts `taken` records settled and returns the completions now due (every one at the end, when `done`); wakes
    /// the callers whose wait is over.
    private func settle(_ taken: Int, writtenThrough: UInt64, lost: [ClosedRange<UInt64>], closing: Bool,
                        reopenedThrough: UInt64) -> (due: [(seq: UInt64, action: WriteCompletion)], done: Bool, oldestWaiting: UInt64) {
        let (due, done, oldestWaiting, met) = state.withLock { state in
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
            return (due, done, oldestWaiting, state.takeMetWaiters())
        }
        for resume in met { resume() }
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

    /// Marks the writer finished, after the last round's completions ran, and wakes `close()` and every other waiter.
    /// A gate it still held is opened: nothing is queued behind a stopped writer.
    private func finish() {
        var resumptions = IntakeGate.Resumptions()
        let met = state.withLock { state in
            state.finished = true
            if state.holdsGate {
                state.holdsGate = false
                resumptions = gate.open(by: holder)
            }
            return state.takeMetWaiters()
        }
        resumptions.run()
        for resume in met { resume() }
    }

    /// One line on stderr, from the consuming task.
    private func say(_ text: String) {
        FileHandle.standardError.write(Data("mockapns: \(text)\n".utf8))
    }
}
