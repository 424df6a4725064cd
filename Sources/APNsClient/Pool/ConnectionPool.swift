import HTTP2
import Support

/// A fixed number of HTTP/2 connections to one APNs endpoint. Requests are spread round-robin over the open
/// connections; each connection honours the server's MAX_CONCURRENT_STREAMS (the HTTP2 client queues sends beyond
/// it). A connection that is lost (GOAWAY, closed) is discarded and its slot filled again.
///
/// Only the pool dials: one connector task fills empty slots one at a time, and after a failed attempt waits out a
/// back-off shared by every push (`ConnectBackoff`, 100 ms doubling to 30 s with jitter, reset on success). A push
/// with no open connection waits on the pool until one opens or its deadline passes; then it fails with
/// `APNsClientError.unreachable`, naming the cause, the address, the attempts and the time spent.
final class ConnectionPool: Sendable {
    private typealias Outcome = Result<HTTP2ClientConnection, APNsClientError>

    /// A push waiting for a connection, and the timer that fails it at its deadline.
    private struct Waiter {
        var continuation: CheckedContinuation<Outcome, Never>
        var timer: Task<Void, Never>
    }

    private struct State {
        var slots: [HTTP2ClientConnection?]
        var next = 0
        var closed = false
        /// The task opening connections; nil when none is needed or the last attempt failed with nobody waiting.
        var connector: Task<Void, Never>?
        /// When the attempt in progress started (to say how long a push waited when no attempt has failed yet).
        var attemptStarted: ContinuousClock.Instant?
        var waiters: [UInt64: Waiter] = [:]
        var nextWaiterID: UInt64 = 0
        var backoff = ConnectBackoff()
    }

    private enum Pick {
        case use(HTTP2ClientConnection)
        case wait
        case closed
    }

    private let client: HTTP2Client
    private let address: APNsEndpoint.Address
    private let tls: TLSClientConfiguration?
    private let state: Locked<State>
    /// `host:port`, as errors name it.
    private let addressText: String

    /// A pool of `size` connections (opened on first use) to `address`.
    init(client: HTTP2Client, address: APNsEndpoint.Address, tls: TLSClientConfiguration?, size: Int) {
        self.client = client
        self.address = address
        self.tls = tls
        addressText = address.host.contains(":") ? "[\(address.host)]:\(address.port)" : "\(address.host):\(address.port)"
        state = Locked(State(slots: Array(repeating: nil, count: max(1, size))))
    }

    /// An open connection: the next slot's, another open one while that slot reconnects, or the first to open
    /// before `deadline`. Throws `.unreachable` when none opened in time, `.cancelled`, `.shutdown`.
    func lease(deadline: ContinuousClock.Instant) async throws(APNsClientError) -> HTTP2ClientConnection {
        switch state.withLock({ pick(&$0) }) {
        case let .use(connection): return connection
        case .closed: throw .shutdown
        case .wait: break
        }
        let id = state.withLock { state in
            state.nextWaiterID &+= 1
            return state.nextWaiterID
        }
        let outcome: Outcome = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Outcome, Never>) in
                let immediate: Outcome? = state.withLock { state in
                    switch pick(&state) {
                    case let .use(connection): return .success(connection)
                    case .closed: return .failure(.shutdown)
                    case .wait:
                        if Task.isCancelled { return .failure(.cancelled) }
                        let timer = Task {
                            do { try await Task.sleep(until: deadline, clock: .continuous) } catch { return }
                            self.finish(waiter: id, cancelled: false)
                        }
                        state.waiters[id] = Waiter(continuation: continuation, timer: timer)
                        return nil
                    }
                }
                if let immediate { continuation.resume(returning: immediate) }
            }
        } onCancel: {
            finish(waiter: id, cancelled: true)
        }
        return try outcome.get()
    }

    /// Forgets `connection` (lost or going away) so its slot is filled again; closes it gracefully.
    func discard(_ connection: HTTP2ClientConnection) {
        let removed = state.withLock { state in
            guard let index = state.slots.firstIndex(where: { $0 === connection }) else { return false }
            state.slots[index] = nil
            return true
        }
        if removed { Task { await connection.close() } }
    }

    /// Closes every connection (in-flight requests finish first), stops connecting, fails waiting pushes with
    /// `.shutdown` and refuses further leases.
    func close() async {
        let (connections, waiters, connector) = state.withLock { state in
            state.closed = true
            defer {
                state.slots = state.slots.map { _ in nil }
                state.waiters = [:]
                state.connector = nil
            }
            return (state.slots.compactMap { $0 }, Array(state.waiters.values), state.connector)
        }
        for waiter in waiters {
            waiter.timer.cancel()
            waiter.continuation.resume(returning: .failure(.shutdown))
        }
        connector?.cancel()
        // A connect in progress finishes first; the connector closes what it opened once it sees `closed`.
        await connector?.value
        for connection in connections { await connection.close() }
    }

    /// How many slots hold an open connection (for tests and diagnostics).
    var openConnections: Int {
        state.withLock { state in state.slots.count(where: { $0 != nil }) }
    }

    /// The outage in progress: failed attempts since the last successful connect, or nil when there are none.
    var outage: APNsConnectFailure? {
        state.withLock { state in state.backoff.failure(address: addressText, now: .now) }
    }

    /// Which connection a lease gets, starting the connector when the chosen slot is empty. Under the lock.
    private func pick(_ state: inout State) -> Pick {
        if state.closed { return .closed }
        let count = state.slots.count
        let index = state.next % count
        state.next &+= 1
        if let connection = state.slots[index] { return .use(connection) }
        if state.connector == nil {
            state.connector = Task { await self.connect() }
        }
        for offset in 1..<count {
            if let connection = state.slots[(index + offset) % count] { return .use(connection) }
        }
        return .wait
    }

    /// Ends waiter `id` (if still waiting) at its deadline or on cancellation.
    private func finish(waiter id: UInt64, cancelled: Bool) {
        let now = ContinuousClock.now
        let ended: (Waiter, APNsClientError)? = state.withLock { state in
            guard let waiter = state.waiters.removeValue(forKey: id) else { return nil }
            if cancelled { return (waiter, .cancelled) }
            return (waiter, .unreachable(state.backoff.failure(address: addressText, now: now)
                ?? APNsConnectFailure(address: addressText, cause: "the connection attempt did not finish",
                                      attempts: 0, elapsed: now - (state.attemptStarted ?? now))))
        }
        guard let (waiter, error) = ended else { return }
        if cancelled { waiter.timer.cancel() }
        waiter.continuation.resume(returning: .failure(error))
    }

    /// The connector: fills empty slots one at a time, waiting out the shared back-off before each attempt; stops
    /// when every slot is open, on close, or after a failure with no push waiting (the next lease starts it again).
    private func connect() async {
        while true {
            let next: (index: Int, notBefore: ContinuousClock.Instant?)? = state.withLock { state in
                guard !state.closed, let index = state.slots.firstIndex(where: { $0 == nil }) else {
                    if !state.closed { state.connector = nil }
                    return nil
                }
                return (index, state.backoff.nextAttempt)
            }
            guard let next else { return }
            if let notBefore = next.notBefore, notBefore > .now {
                do { try await Task.sleep(until: notBefore, clock: .continuous) } catch { return }
            }
            let started = ContinuousClock.now
            state.withLock { $0.attemptStarted = started }
            let result: Result<HTTP2ClientConnection, HTTP2ClientError>
            do throws(HTTP2ClientError) {
                result = .success(try await client.connect(host: address.host, port: address.port, tls: tls))
            } catch {
                result = .failure(error)
            }
            switch result {
            case let .success(connection):
                guard let waiters = opened(connection, at: next.index) else {
                    await connection.close()
                    return
                }
                for waiter in waiters {
                    waiter.timer.cancel()
                    waiter.continuation.resume(returning: .success(connection))
                }
            case let .failure(error):
                let (failed, stop) = attemptFailed(error, started: started)
                for (waiter, failure) in failed {
                    waiter.timer.cancel()
                    waiter.continuation.resume(returning: .failure(failure))
                }
                if stop { return }
            }
        }
    }

    /// Puts `connection` in slot `index`, resets the back-off and hands over the waiting pushes; nil when closed.
    private func opened(_ connection: HTTP2ClientConnection, at index: Int) -> [Waiter]? {
        state.withLock { state in
            state.attemptStarted = nil
            if state.closed { return nil }
            state.slots[index] = connection
            state.backoff.succeeded()
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
    }

    /// Records a failed attempt; returns the pushes to fail now (a permanent cause) and whether the connector stops.
    private func attemptFailed(_ error: HTTP2ClientError, started: ContinuousClock.Instant)
        -> (failed: [(Waiter, APNsClientError)], stop: Bool)
    {
        let now = ContinuousClock.now
        let cause = ConnectBackoff.cause(of: error, address: addressText)
        return state.withLock { state in
            state.attemptStarted = nil
            state.backoff.failed(cause: cause, started: started, now: now)
            if state.closed { return ([], true) }
            var failed: [(Waiter, APNsClientError)] = []
            if ConnectBackoff.isPermanent(error), let failure = state.backoff.failure(address: addressText, now: now) {
                failed = state.waiters.values.map { ($0, .unreachable(failure)) }
                state.waiters = [:]
            }
            if state.waiters.isEmpty {
                state.connector = nil
                return (failed, true)
            }
            return (failed, false)
        }
    }
}
