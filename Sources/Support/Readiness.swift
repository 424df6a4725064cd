/// A value that becomes known once, awaited by any number of tasks: a listener's bound ports, which the ready file
/// waits for while the listener binds in its service's `run()`.
public final class Readiness<Value: Sendable>: Sendable {
    private enum State {
        case waiting([CheckedContinuation<Value, any Error>])
        case done(Result<Value, any Error>)
    }

    private let state = Locked(State.waiting([]))

    /// Not known yet.
    public init() {}

    /// Makes the value known; later calls (and ``fail(_:)``) change nothing.
    public func succeed(_ value: Value) {
        settle(.success(value))
    }

    /// Makes the outcome a failure (the listener could not bind, or stopped before it did).
    public func fail(_ error: any Error) {
        settle(.failure(error))
    }

    /// The value, once known: at once if it is.
    public func value() async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            let known = state.withLock { state -> Result<Value, any Error>? in
                switch state {
                case .waiting(var waiters):
                    waiters.append(continuation)
                    state = .waiting(waiters)
                    return nil
                case .done(let result):
                    return result
                }
            }
            if let known { continuation.resume(with: known) }
        }
    }

    /// The value if it is known and a success.
    public var current: Value? {
        state.withLock { state in
            if case .done(.success(let value)) = state { return value }
            return nil
        }
    }

    private func settle(_ result: Result<Value, any Error>) {
        let waiters = state.withLock { state -> [CheckedContinuation<Value, any Error>] in
            guard case .waiting(let waiters) = state else { return [] }
            state = .done(result)
            return waiters
        }
        for waiter in waiters { waiter.resume(with: result) }
    }
}
