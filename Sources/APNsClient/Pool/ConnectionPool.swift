import HTTP2
import Synchronized

/// A fixed number of HTTP/2 connections to one APNs endpoint. Requests are spread round-robin over the slots;
/// each connection honours the server's MAX_CONCURRENT_STREAMS (the HTTP2 client queues sends beyond it). A slot
/// whose connection is lost (GOAWAY, closed) is emptied and reconnected on next use; concurrent callers share
/// one connect.
final class ConnectionPool: Sendable {
    private typealias Connect = Task<Result<HTTP2ClientConnection, HTTP2ClientError>, Never>

    private enum Slot {
        case empty
        case connecting(Connect)
        case ready(HTTP2ClientConnection)
    }

    private struct State {
        var slots: [Slot]
        var next = 0
        var closed = false
    }

    private enum Lease {
        case use(HTTP2ClientConnection)
        case wait(Connect, Int)
        case closed
    }

    private let client: HTTP2Client
    private let address: APNsEndpoint.Address
    private let tls: TLSClientConfiguration?
    private let state: Locked<State>

    /// A pool of `size` connections (opened lazily) to `address`.
    init(client: HTTP2Client, address: APNsEndpoint.Address, tls: TLSClientConfiguration?, size: Int) {
        self.client = client
        self.address = address
        self.tls = tls
        state = Locked(State(slots: Array(repeating: .empty, count: max(1, size))))
    }

    /// The next slot's connection, connecting it first if needed.
    func lease() async throws(APNsClientError) -> HTTP2ClientConnection {
        let lease: Lease = state.withLock { state in
            if state.closed { return .closed }
            let index = state.next % state.slots.count
            state.next &+= 1
            switch state.slots[index] {
            case let .ready(connection):
                return .use(connection)
            case let .connecting(task):
                return .wait(task, index)
            case .empty:
                let task = makeConnect()
                state.slots[index] = .connecting(task)
                return .wait(task, index)
            }
        }
        switch lease {
        case let .use(connection):
            return connection
        case .closed:
            throw .shutdown
        case let .wait(task, index):
            let result = await task.value
            let closed = state.withLock { state in
                if case let .connecting(current) = state.slots[index], current == task {
                    switch result {
                    case let .success(connection): state.slots[index] = .ready(connection)
                    case .failure: state.slots[index] = .empty
                    }
                }
                return state.closed
            }
            switch result {
            case let .success(connection):
                if closed {
                    await connection.close()
                    throw .shutdown
                }
                return connection
            case let .failure(error):
                throw .connection("\(address.host):\(address.port): \(error.description)")
            }
        }
    }

    /// Forgets `connection` (lost or going away) so its slot reconnects on next use; closes it gracefully.
    func discard(_ connection: HTTP2ClientConnection) {
        let removed = state.withLock { state in
            for index in state.slots.indices {
                if case let .ready(current) = state.slots[index], current === connection {
                    state.slots[index] = .empty
                    return true
                }
            }
            return false
        }
        if removed { Task { await connection.close() } }
    }

    /// Closes every connection (in-flight requests finish first) and refuses further leases.
    func close() async {
        let slots: [Slot] = state.withLock { state in
            state.closed = true
            defer { state.slots = state.slots.map { _ in .empty } }
            return state.slots
        }
        for slot in slots {
            switch slot {
            case .empty: break
            case let .ready(connection): await connection.close()
            case let .connecting(task):
                if case let .success(connection) = await task.value { await connection.close() }
            }
        }
    }

    /// How many slots hold an open connection (for tests and diagnostics).
    var openConnections: Int {
        state.withLock { state in
            state.slots.filter { if case .ready = $0 { return true } else { return false } }.count
        }
    }

    private func makeConnect() -> Connect {
        let client = client, address = address, tls = tls
        return Task {
            do throws(HTTP2ClientError) {
                return .success(try await client.connect(host: address.host, port: address.port, tls: tls))
            } catch {
                return .failure(error)
            }
        }
    }
}
