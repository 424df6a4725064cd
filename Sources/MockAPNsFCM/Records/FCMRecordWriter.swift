import Foundation
import MockAPNsRecording
import Support

/// Writes the FCM front door's records to a shared store (`serve --fcm --store URL`) from one consuming task, in
/// batches of what queued while the last batch was written, so a request's task only queues its record.
///
/// Bounded: once ``queueLimit`` records wait (the store is slower than the senders, or down), ``enqueue(_:)``
/// suspends the request's task until the consumer has taken the queue; its answer waits, no thread does, and the
/// event loops stay free for the store's own connection. A batch the store refuses is tried again every 100 ms,
/// each change between failing and writing said once on stderr. On stop the queue is drained, for at most ``drainLimit``
/// (five seconds) while the store refuses it; what is left then is counted ``lost``.
final class FCMRecordWriter: Sendable {
    /// Records queued before senders wait.
    static let defaultQueueLimit = 10_000
    /// Records per `appendFCM` (one statement).
    static let batchLimit = 1_000
    /// How long stopping keeps trying a store that refuses the last records.
    let drainLimit: Duration

    private struct State {
        var pending: [FCMRecord] = []
        var lastSequence: UInt64 = 0
        /// Records written or lost: what `flush` waits for.
        var settled: UInt64 = 0
        var lost = 0
        var stopping = false
        var stopped = false
        /// The consuming task, while it waits for records.
        var consumer: CheckedContinuation<Void, Never>?
        /// Senders waiting for room in the queue.
        var waitingForRoom: [CheckedContinuation<Void, Never>] = []
        /// Callers of `flush`, each with the count it waits for.
        var waitingForFlush: [(through: UInt64, continuation: CheckedContinuation<Void, Never>)] = []
    }

    let store: any FCMRecordStore
    let queueLimit: Int
    private let state = Locked(State())

    init(store: any FCMRecordStore, queueLimit: Int = FCMRecordWriter.defaultQueueLimit, drainLimit: Duration = .seconds(5)) {
        self.store = store
        self.drainLimit = drainLimit
        self.queueLimit = max(1, queueLimit)
    }

    /// Records that could not be written before the writer stopped.
    var lost: Int { state.withLock { $0.lost } }

    /// Numbers `record` (1, 2, 3… for this instance) and queues it, waiting for room first when the queue is full.
    func enqueue(_ record: FCMRecord) async {
        while true {
            enum Outcome { case queued(CheckedContinuation<Void, Never>?), full }
            let outcome = state.withLock { state -> Outcome in
                if state.stopped {
                    // After the drain: nothing will write it.
                    state.lastSequence &+= 1
                    state.settled &+= 1
                    state.lost += 1
                    return .queued(nil)
                }
                guard state.pending.count < queueLimit else { return .full }
                state.lastSequence &+= 1
                var numbered = record
                numbered.sequence = state.lastSequence
                state.pending.append(numbered)
                defer { state.consumer = nil }
                return .queued(state.consumer)
            }
            switch outcome {
            case .queued(let consumer):
                consumer?.resume()
                return
            case .full:
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    let roomNow = state.withLock { state -> Bool in
                        if state.stopped || state.pending.count < queueLimit { return true }
                        state.waitingForRoom.append(continuation)
                        return false
                    }
                    if roomNow { continuation.resume() }
                }
            }
        }
    }

    /// Returns once every record queued before the call is written, lost, or held by a store that refuses it (a
    /// reader then reads the store and hears why it fails): so this instance reads its own records.
    func flush() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let doneNow = state.withLock { state -> Bool in
                if state.settled >= state.lastSequence || state.stopped { return true }
                state.waitingForFlush.append((state.lastSequence, continuation))
                return false
            }
            if doneNow { continuation.resume() }
        }
    }

    /// The consuming task: writes what queues until ``stop()``, then drains the queue and returns.
    func run() async {
        var failing = false
        var drainDeadline: ContinuousClock.Instant?
        while true {
            let batch = await nextBatch()
            guard let batch else { break }
            let stored = batch.map(Self.stored)
            do {
                try await store.appendFCM(stored)
                if failing {
                    failing = false
                    say("\(store.label) takes FCM records again")
                }
                settle(taken: batch.count, lost: 0)
            } catch {
                if !failing {
                    failing = true
                    say("cannot write FCM records to \(store.label): \(store.describe(error)); holding them, senders wait once \(queueLimit) are queued")
                }
                releaseFlushWaiters()
                let stopping = state.withLock { $0.stopping }
                if stopping {
                    let deadline = drainDeadline ?? ContinuousClock.now + drainLimit
                    drainDeadline = deadline
                    if ContinuousClock.now >= deadline {
                        settle(taken: batch.count, lost: batch.count)
                        continue
                    }
                }
                try? await Task.sleep(for: .milliseconds(100))
            }
        }
        // What is lost is ``lost``'s to say (`serve` does, on exit).
        let waiters = state.withLock { state in
            state.stopped = true
            let waiters = state.waitingForRoom + state.waitingForFlush.map(\.continuation)
            state.waitingForRoom = []
            state.waitingForFlush = []
            return waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Asks the consuming task to write what is queued and return.
    func stop() {
        let consumer = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.stopping = true
            defer { state.consumer = nil }
            return state.consumer
        }
        consumer?.resume()
    }

    /// The oldest queued records, up to ``batchLimit`` (left queued until written); waits while there are none; nil
    /// once stopping with nothing left.
    private func nextBatch() async -> [FCMRecord]? {
        while true {
            let batch = state.withLock { state -> [FCMRecord]?? in
                if !state.pending.isEmpty { return .some(Array(state.pending.prefix(Self.batchLimit))) }
                return state.stopping ? .some(nil) : .none
            }
            if let batch { return batch }
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let wakeNow = state.withLock { state -> Bool in
                    if !state.pending.isEmpty || state.stopping { return true }
                    state.consumer = continuation
                    return false
                }
                if wakeNow { continuation.resume() }
            }
        }
    }

    /// Takes the first `taken` queued records off (written, or `lost` of them given up), and wakes who waited.
    private func settle(taken: Int, lost: Int) {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.pending.removeFirst(min(taken, state.pending.count))
            state.settled &+= UInt64(taken)
            state.lost += lost
            var waiters = state.waitingForRoom
            state.waitingForRoom = []
            let done = state.waitingForFlush.filter { $0.through <= state.settled }
            state.waitingForFlush.removeAll { $0.through <= state.settled }
            waiters += done.map(\.continuation)
            return waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Wakes every `flush` caller: the store refuses the records, and a reader is to hear so from the store.
    private func releaseFlushWaiters() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            defer { state.waitingForFlush = [] }
            return state.waitingForFlush.map(\.continuation)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// One line on stderr, as the APNs records' writer says its changes of state.
    private func say(_ text: String) {
        FileHandle.standardError.write(Data("mockapns: \(text)\n".utf8))
    }

    /// `record` as the store keeps it.
    static func stored(_ record: FCMRecord) -> StoredFCMRecord {
        StoredFCMRecord(seq: record.sequence, receivedAtMillis: record.receivedAtMillis, project: record.project, name: record.name,
                        status: record.status, line: record.json.jsonText())
    }
}
