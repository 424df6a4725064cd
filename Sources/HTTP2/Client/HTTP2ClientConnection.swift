#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import NIOCore
import NIOPosix
import Synchronization
import Support

/// One HTTP/2 connection to a server, multiplexing requests over streams. Honours the server's
/// SETTINGS_MAX_CONCURRENT_STREAMS (further sends wait for a free slot), retries streams the server
/// refused without processing, fails the right streams on GOAWAY. Safe to use from any task.
///
/// ```swift
/// let client = HTTP2Client()
/// let connection = try await client.connect(host: "localhost", port: 2197,
///                                           tls: TLSClientConfiguration(trustRoots: .file("ca.pem")))
/// let response = try await connection.send(HTTP2ClientRequest(method: "POST", path: "/3/device/…", body: payload))
/// await connection.close()
/// ```
public final class HTTP2ClientConnection: Sendable {
    private let connection: ClientConnection
    private let nextToken = Atomic<UInt64>(1)

    private init(connection: ClientConnection) {
        self.connection = connection
    }

    /// Dropping the last reference closes the connection gracefully (in-flight requests still finish). Once the
    /// client has shut down, its loops closed the connection already.
    deinit {
        let connection = self.connection
        connection.loop.execute { connection.shutdown() }
    }

    /// Connection identifier, unique within the process.
    public var id: UInt64 { connection.id }

    /// Connects (TCP, then TLS when `tls` is set, else h2c prior knowledge) on `loop` and returns once the server's
    /// first SETTINGS frame arrived. Open connections through ``HTTP2Client/connect(host:port:tls:)``.
    static func connect(
        host: String, port: Int, tls: TLSClientConfiguration?, on loop: NIOConnectionLoop,
        configuration: HTTP2ClientConfiguration
    ) async throws(HTTP2ClientError) -> HTTP2ClientConnection {
        let tlsContext: TLSClientContext?
        do {
            tlsContext = try tls.map { (tls) throws(HTTP2Error) in try TLSClientContext(configuration: tls) }
        } catch {
            throw .tlsHandshakeFailed(error.description)
        }
        let bareHost = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        let channel: any Channel
        do {
            channel = try await ClientBootstrap(group: loop.nio)
                .connectTimeout(.nanoseconds(Int64(clamping: configuration.connectTimeout.nanoseconds)))
                .channelOption(.tcpOption(.tcp_nodelay), value: 1)
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(NIOChannelDriver(loop: loop, role: .client))
                    }
                }
                .connect(host: bareHost, port: port).get()
        } catch {
            throw Self.connectFailure(error, host: host, port: port, timeout: configuration.connectTimeout)
        }
        let box = ConnectionBox()
        let result: Result<Void, HTTP2ClientError> = await withCheckedContinuation { continuation in
            channel.eventLoop.execute {
                guard let driver = try? channel.pipeline.syncOperations.handler(type: NIOChannelDriver.self) else {
                    continuation.resume(returning: .failure(.connectFailed("\(host):\(port): the connection closed as soon as it opened")))
                    return
                }
                let connection = ClientConnection(
                    driver: driver, host: bareHost, port: port, loop: loop, tls: tlsContext, configuration: configuration
                ) { result in continuation.resume(returning: result) }
                box.set(connection)
                connection.start()
                connection.connectCompleted(error: nil)
            }
        }
        switch result {
        case .success:
            return HTTP2ClientConnection(connection: box.get()!)
        case let .failure(error):
            throw error
        }
    }

    /// What a failed connect says: the name did not resolve, the peer refused, or no answer in time.
    private static func connectFailure(_ error: any Error, host: String, port: Int, timeout: Duration) -> HTTP2ClientError {
        if let failure = error as? NIOConnectionError {
            if let first = failure.connectionErrors.first {
                return connectFailure(first.error, host: host, port: port, timeout: timeout)
            }
            let dns = failure.dnsAError ?? failure.dnsAAAAError
            return .connectFailed(HTTP2Error.unresolvableHost(host: host, port: port, reason: dns.map { "\($0)" } ?? "no address").description)
        }
        if let io = error as? IOError {
            return .connectFailed("\(host):\(port): \(String(cString: strerror(io.errnoCode)))")
        }
        if let channel = error as? ChannelError, case .connectTimeout = channel {
            return .connectFailed("timed out after \(timeout) connecting to \(host):\(port)")
        }
        return .connectFailed("\(host):\(port): \(error)")
    }

    /// Sends a request and waits for the complete response. Waits for a stream slot when the server's
    /// concurrency limit is reached. Throws `.goAway(retryable: true)` when the server is going away and
    /// never processed it, `.timeout`, `.streamReset`, `.connectionClosed` (also once the client has shut down),
    /// `.cancelled`.
    public func send(_ request: HTTP2ClientRequest) async throws(HTTP2ClientError) -> HTTP2ClientResponse {
        let connection = self.connection
        let token = nextToken.wrappingAdd(1, ordering: .relaxed).oldValue
        let result: Result<HTTP2ClientResponse, HTTP2ClientError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let completion: ClientStream.Completion = { result in continuation.resume(returning: result) }
                if connection.loop.inEventLoop {
                    // A task running on this loop (``NIOLoopExecutor``): no hop.
                    connection.enqueue(ClientStream(token: token, request: request, completion: completion))
                } else if !connection.loop.execute({
                    connection.enqueue(ClientStream(token: token, request: request, completion: completion))
                }) {
                    completion(.failure(.connectionClosed))
                }
            }
        } onCancel: {
            connection.loop.execute { connection.cancel(token: token) }
        }
        return try result.get()
    }

    /// Sends PING and returns the round-trip time.
    public func ping() async throws(HTTP2ClientError) -> Duration {
        let connection = self.connection
        let result: Result<Duration, HTTP2ClientError> = await withCheckedContinuation { continuation in
            let queued = connection.loop.execute {
                connection.ping { result in continuation.resume(returning: result) }
            }
            if !queued { continuation.resume(returning: .failure(.connectionClosed)) }
        }
        return try result.get()
    }

    /// Whether new requests are accepted (false after GOAWAY, `close()`, or a dropped connection).
    public var isAcceptingRequests: Bool {
        get async { await onLoop(orOnceStopped: false) { $0.isAcceptingRequests } }
    }

    /// The server's current SETTINGS_MAX_CONCURRENT_STREAMS (0 once the client has shut down).
    public var maxConcurrentStreams: UInt32 {
        get async { await onLoop(orOnceStopped: 0) { $0.remoteMaxConcurrentStreams } }
    }

    /// The negotiated ALPN protocol ("h2"), or nil.
    public var alpn: String? {
        get async { await onLoop(orOnceStopped: nil) { $0.alpn } }
    }

    /// Sends GOAWAY, fails requests still waiting for a slot, lets in-flight ones finish, then closes.
    public func close() async {
        await onLoop(orOnceStopped: ()) { $0.shutdown() }
    }

    /// `body`'s result on the connection's loop, or `fallback` once the loop has stopped (its client shut down), since
    /// a task queued there would never run.
    private func onLoop<Value: Sendable>(orOnceStopped fallback: Value,
                                         _ body: @escaping @Sendable (ClientConnection) -> Value) async -> Value {
        let connection = self.connection
        return await withCheckedContinuation { continuation in
            let queued = connection.loop.execute { continuation.resume(returning: body(connection)) }
            if !queued { continuation.resume(returning: fallback) }
        }
    }
}

/// Hands the connection object from the loop back to the connecting task.
private final class ConnectionBox: Sendable {
    private let value = Locked<ClientConnection?>(nil)
    func set(_ connection: ClientConnection) { value.withLock { $0 = connection } }
    func get() -> ClientConnection? { value.withLock { $0 } }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
