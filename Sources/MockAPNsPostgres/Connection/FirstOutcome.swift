import Support

/// The first of several outcomes racing to finish one waiting continuation (``PostgresSession``'s `untilClosed`):
/// the continuation is resumed once, with whichever outcome settles first; later ones are dropped.
final class FirstOutcome<Value: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<Value, any Error>?
        var settled: Result<Value, any Error>?
        var task: Task<Void, Never>?
        var cancelled = false
    }

    private let state = Locked(State())

    /// Registers the waiting continuation; resumes it at once when an outcome settled before.
    func wait(_ continuation: CheckedContinuation<Value, any Error>) {
        let early = state.withLock { state -> Result<Value, any Error>? in
            if let settled = state.settled { return settled }
            state.continuation = continuation
            return nil
        }
        if let early { continuation.resume(with: early) }
    }

    /// The task producing the main outcome, cancelled when the waiter is (at once if it already was).
    func attach(_ task: Task<Void, Never>) {
        let cancelNow = state.withLock { state in
            state.task = task
            return state.cancelled
        }
        if cancelNow { task.cancel() }
    }

    /// Settles with `result` unless something settled first.
    func settle(_ result: Result<Value, any Error>) {
        let continuation = state.withLock { state -> CheckedContinuation<Value, any Error>? in
            guard state.settled == nil else { return nil }
            state.settled = result
            defer { state.continuation = nil }
            return state.continuation
        }
        continuation?.resume(with: result)
    }

    /// Passes the waiter's cancellation on to the task.
    func cancel() {
        let task = state.withLock { state in
            state.cancelled = true
            return state.task
        }
        task?.cancel()
    }
}
