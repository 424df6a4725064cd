import Support

/// Lets ``HTTP2Server/shutdown(gracePeriod:)`` wait for a server's last connection to close, up to a deadline,
/// instead of polling the count: the connection that brings ``ServerContext/openConnections`` to zero wakes every
/// waiter. The count itself stays an atomic the accept path reads without a lock; the lock here is taken only by a
/// waiter and by the close that reaches zero.
final class ConnectionDrain: Sendable {
    private struct State {
        var nextID = 0
        var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
    }

    private let state = Locked(State())

    /// Wakes every waiter; called by the close that left no connection open.
    func drained() {
        let waiters = state.withLock { state in
            defer { state.waiters.removeAll() }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns once `openConnections()` is 0 (checked after registering, so a close in between is not missed) or
    /// `deadline` has passed, whichever comes first.
    func wait(until deadline: ContinuousClock.Instant, openConnections: @escaping @Sendable () -> Int) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.waitForZero(openConnections) }
            group.addTask { try? await Task.sleep(until: deadline, clock: .continuous) }
            await group.next()
            group.cancelAll()
        }
    }

    /// Suspends until ``drained()`` runs or the task is cancelled.
    private func waitForZero(_ openConnections: @Sendable () -> Int) async {
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = state.withLock { state -> Bool in
                    if Task.isCancelled || openConnections() == 0 { return true }
                    state.waiters[id] = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { $0.waiters.removeValue(forKey: id) }
            waiter?.resume()
        }
    }
}
