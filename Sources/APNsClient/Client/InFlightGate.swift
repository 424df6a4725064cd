import Support

/// Counts sends in progress so `shutdown()` can refuse new ones and wait for the rest to finish.
final class InFlightGate: Sendable {
    private struct State {
        var inFlight = 0
        var closed = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Locked(State())

    /// Registers a send; false once closed.
    func enter() -> Bool {
        state.withLock { state in
            if state.closed { return false }
            state.inFlight += 1
            return true
        }
    }

    /// Ends a send, waking `close()` when it was the last.
    func leave() {
        let waiters: [CheckedContinuation<Void, Never>] = state.withLock { state in
            state.inFlight -= 1
            guard state.closed, state.inFlight == 0 else { return [] }
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Refuses new sends and returns once every send in progress has finished.
    func close() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let done = state.withLock { state in
                state.closed = true
                if state.inFlight == 0 { return true }
                state.waiters.append(continuation)
                return false
            }
            if done { continuation.resume() }
        }
    }
}
