import CNghttp2
import COpenSSL
import Support

/// The loop-side half of a client connection (a ``ConnectionCore``): TLS, nghttp2 client session, the queue of requests
/// waiting for a stream slot (the server's MAX_CONCURRENT_STREAMS), streams in flight, pings, GOAWAY.
// @unchecked Sendable: all mutable state is confined to `loop`'s thread; `HTTP2ClientConnection` only
// reaches it through `loop.execute`.
final class ClientConnection: ConnectionCore, @unchecked Sendable {
    typealias ConnectCompletion = @Sendable (Result<Void, HTTP2ClientError>) -> Void
    typealias PingCompletion = @Sendable (Result<Duration, HTTP2ClientError>) -> Void

    let id: UInt64
    let host: String
    let port: Int
    let configuration: HTTP2ClientConfiguration
    private let tls: TLSClientContext?
    @exclusivity(unchecked) private var connectCompletion: ConnectCompletion?
    @exclusivity(unchecked) private var waiting: [ClientStream] = []
    @exclusivity(unchecked) private var streams: [Int32: ClientStream] = [:]
    @exclusivity(unchecked) private var pings: [(opaque: UInt64, started: UInt64, completion: PingCompletion)] = []
    @exclusivity(unchecked) private var nextPing: UInt64 = 1
    /// Lays out each request's header block for nghttp2.
    @exclusivity(unchecked) private var requestHeaders = HeaderBlockBuilder()
    /// Set once a GOAWAY arrived or `close()` was asked: no new requests.
    @exclusivity(unchecked) private(set) var goAwayReceived = false
    @exclusivity(unchecked) private var closedByUser = false
    /// The negotiated ALPN protocol.
    @exclusivity(unchecked) private(set) var alpn: String?
    /// When the pending timeout sweep runs (monotonic nanoseconds), if one is pending.
    @exclusivity(unchecked) private var sweepAt: UInt64?

    init(driver: any ConnectionDriver, host: String, port: Int, loop: any ConnectionLoop, tls: TLSClientContext?,
         configuration: HTTP2ClientConfiguration, completion: @escaping ConnectCompletion) {
        id = nextConnectionID.wrappingAdd(1, ordering: .relaxed).oldValue
        self.host = host
        self.port = port
        self.tls = tls
        self.configuration = configuration
        self.connectCompletion = completion
        super.init(loop: loop, driver: driver, phase: .connecting, highWaterMark: 256 * 1024)
    }

    /// Hands itself to its driver and arms the connect timeout (which covers the TLS handshake and the server's first
    /// SETTINGS). Loop thread only.
    func start() {
        guard attachToDriver() else {
            failConnect(.connectFailed("\(host):\(port): the connection closed as soon as it opened"))
            return
        }
        // Strong capture: weak references would put a side table on the connection (slower refcounting).
        loop.scheduleLocal(in: configuration.connectTimeout.nanoseconds) { [self] in
            guard connectCompletion != nil else { return }
            failConnect(.connectFailed("timed out after \(configuration.connectTimeout) connecting to \(host):\(port)"))
        }
    }

    private func failConnect(_ error: HTTP2ClientError) {
        if let completion = connectCompletion {
            connectCompletion = nil
            completion(.failure(error))
        }
        close()
    }

    // MARK: - Transport

    override func connectCompleted(error: String?) {
        if let error {
            failConnect(.connectFailed("\(host):\(port): \(error)"))
            return
        }
        if let tls {
            guard let (ssl, input, output) = tls.makeSSL(host: host) else {
                failConnect(.tlsHandshakeFailed("SSL_new failed"))
                return
            }
            attachTLS(ssl: ssl, input: input, output: output)
            phase = .handshaking
            updateInterest()
            driveHandshake()
        } else {
            phase = .active
            transportReady()
        }
    }

    override func handshakeFailed(reason: String) {
        var message = reason
        if let ssl {
            let verify = verifyFailureReason(ssl: ssl)
            if !verify.isEmpty { message = "certificate verification failed: \(verify)" + (reason.isEmpty ? "" : " (\(reason))") }
        }
        if message.isEmpty { message = "the server closed the connection during the handshake" }
        failConnect(.tlsHandshakeFailed(message))
    }

    override func transportReady() {
        if let ssl { alpn = selectedALPN(ssl: ssl) }
        guard createSession(), let session else {
            failConnect(.protocolError("nghttp2 client session could not be created"))
            return
        }
        var settings: [nghttp2_settings_entry] = [
            .init(settings_id: Int32(NGHTTP2_SETTINGS_ENABLE_PUSH.rawValue), value: 0),
            .init(settings_id: Int32(NGHTTP2_SETTINGS_INITIAL_WINDOW_SIZE.rawValue), value: configuration.initialWindowSize),
        ]
        _ = nghttp2_submit_settings(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), &settings, settings.count)
        _ = nghttp2_session_set_local_window_size(
            session, UInt8(NGHTTP2_FLAG_NONE.rawValue), 0, Int32(clamping: configuration.initialWindowSize))
        scheduleTick()
    }

    private func createSession() -> Bool {
        createSession(asServer: false) { callbacks, option in
            nghttp2_session_callbacks_set_on_header_callback(callbacks, clientOnHeader)
            nghttp2_session_callbacks_set_on_data_chunk_recv_callback(callbacks, clientOnDataChunk)
            nghttp2_session_callbacks_set_on_frame_recv_callback(callbacks, clientOnFrameRecv)
            nghttp2_session_callbacks_set_on_stream_close_callback(callbacks, clientOnStreamClose)
            nghttp2_option_set_no_closed_streams(option, 1)
        }
    }

    override func transportClosed() {
        if let completion = connectCompletion {
            connectCompletion = nil
            completion(.failure(.connectFailed("the connection to \(host):\(port) closed during setup")))
        }
        let error: HTTP2ClientError = goAwayReceived && !closedByUser ? .goAway(retryable: true) : .connectionClosed
        for stream in waiting { stream.finish(.failure(closedByUser ? .connectionClosed : error)) }
        waiting.removeAll()
        for stream in streams.values { stream.finish(.failure(stream.pendingError ?? .connectionClosed)) }
        streams.removeAll()
        for ping in pings { ping.completion(.failure(.connectionClosed)) }
        pings.removeAll()
    }

    // MARK: - Requests (loop thread)

    var isAcceptingRequests: Bool { phase == .active && !goAwayReceived && !closedByUser && session != nil }

    /// The server's SETTINGS_MAX_CONCURRENT_STREAMS.
    var remoteMaxConcurrentStreams: UInt32 {
        guard let session else { return 0 }
        return nghttp2_session_get_remote_settings(session, NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS)
    }

    func enqueue(_ stream: ClientStream) {
        guard isAcceptingRequests else {
            stream.finish(.failure(goAwayReceived ? .goAway(retryable: true) : .connectionClosed))
            return
        }
        if let timeout = stream.request.timeout ?? configuration.requestTimeout {
            stream.deadline = max(loop.currentTime() &+ timeout.nanoseconds, 1)
            armTimeoutSweep(at: stream.deadline)
        }
        waiting.append(stream)
        dispatchWaiting()
    }

    // MARK: - Request timeouts (loop thread)
    //
    // One sweep per connection instead of one timer per request: requests finish long before their timeout,
    // and a timer each (scheduled, cancelled, swept out of the loop's heap) cost more than sending the request.
    // The sweep runs at the earliest deadline it knows of, fails what has expired, and re-arms for the next.

    private func armTimeoutSweep(at deadline: UInt64) {
        if let pending = sweepAt, pending <= deadline { return }
        sweepAt = deadline
        let now = loop.currentTime()
        loop.scheduleLocal(in: deadline > now ? deadline - now : 0) { [self] in  // strong: see start()
            sweepTimeouts(scheduledFor: deadline)
        }
    }

    private func sweepTimeouts(scheduledFor deadline: UInt64) {
        guard sweepAt == deadline else { return }   // superseded by an earlier sweep, which re-armed
        sweepAt = nil
        let now = loop.currentTime()
        var expired: [ClientStream] = []
        var next: UInt64 = .max
        for stream in waiting + streams.values where stream.deadline != 0 && !stream.finished {
            if stream.deadline <= now { expired.append(stream) } else { next = min(next, stream.deadline) }
        }
        for stream in expired { cancel(stream, with: .timeout) }
        if next != .max { armTimeoutSweep(at: next) }
    }

    /// Cancels by token (task cancellation).
    func cancel(token: UInt64) {
        if let stream = waiting.first(where: { $0.token == token }) ?? streams.values.first(where: { $0.token == token }) {
            cancel(stream, with: .cancelled)
        }
    }

    private func cancel(_ stream: ClientStream, with error: HTTP2ClientError) {
        guard !stream.finished else { return }
        if stream.streamID < 0 {
            waiting.removeAll { $0 === stream }
            stream.finish(.failure(error))
            return
        }
        stream.finish(.failure(error))
        if let session {
            _ = nghttp2_submit_rst_stream(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), stream.streamID, NGHTTP2_CANCEL.rawValue)
            scheduleTick()
        }
    }

    /// Submits waiting requests while the server's concurrency limit allows.
    private func dispatchWaiting() {
        guard let session, phase == .active, connectCompletion == nil else { return }
        var submitted = false
        while !waiting.isEmpty && !goAwayReceived && UInt32(streams.count) < remoteMaxConcurrentStreams {
            let stream = waiting.removeFirst()
            if stream.finished { continue }
            submit(stream, session: session)
            submitted = true
        }
        if submitted { scheduleTick() }
    }

    private func submit(_ stream: ClientStream, session: OpaquePointer) {
        let request = stream.request
        let authority = request.authority ?? (port == 443 ? host : "\(host):\(port)")
        let scheme = tls != nil ? "https" : "http"
        var fields = [HTTPHeaderField(lowercaseName: ":method", value: request.method),
                      HTTPHeaderField(lowercaseName: ":scheme", value: scheme),
                      HTTPHeaderField(lowercaseName: ":authority", value: authority),
                      HTTPHeaderField(lowercaseName: ":path", value: request.path)]
        fields.append(contentsOf: request.headers)
        var provider = nghttp2_data_provider()
        let hasBody = !(request.body?.isEmpty ?? true)
        if hasBody {
            provider.source.ptr = Unmanaged.passUnretained(stream).toOpaque()
            provider.read_callback = clientReadBody
        }
        stream.requestOffset = 0
        let userData = Unmanaged.passUnretained(stream).toOpaque()
        let streamID = requestHeaders.withBlock(fields: fields) { nva, count in
            hasBody
                ? nghttp2_submit_request(session, nil, nva, count, &provider, userData)
                : nghttp2_submit_request(session, nil, nva, count, nil, userData)
        }
        if streamID < 0 {
            stream.finish(.failure(.protocolError(String(cString: nghttp2_strerror(streamID)))))
            return
        }
        stream.streamID = streamID
        stream.attempts += 1
        streams[streamID] = stream
    }

    func ping(completion: @escaping PingCompletion) {
        guard phase == .active, let session else {
            completion(.failure(.connectionClosed))
            return
        }
        let opaque = nextPing
        nextPing += 1
        var data = opaque.bigEndian
        let rc = withUnsafeBytes(of: &data) { nghttp2_submit_ping(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), $0.baseAddress?.assumingMemoryBound(to: UInt8.self)) }
        guard rc == 0 else {
            completion(.failure(.protocolError(String(cString: nghttp2_strerror(rc)))))
            return
        }
        pings.append((opaque, loop.currentTime(), completion))
        scheduleTick()
    }

    /// Graceful close: GOAWAY(NO_ERROR), fail queued requests, let in-flight ones finish, then close
    /// (nghttp2 stops wanting to read or write once the last stream is done).
    func shutdown() {
        closedByUser = true
        for stream in waiting { stream.finish(.failure(.connectionClosed)) }
        waiting.removeAll()
        guard phase == .active, let session else {
            close()
            return
        }
        _ = nghttp2_submit_goaway(
            session, UInt8(NGHTTP2_FLAG_NONE.rawValue), nghttp2_session_get_last_proc_stream_id(session),
            NGHTTP2_NO_ERROR.rawValue, nil, 0)
        scheduleTick()
    }

    // MARK: - nghttp2 callbacks

    fileprivate func header(stream: ClientStream, name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>) {
        if name.count == 7 && name[0] == UInt8(ascii: ":") {
            var status = 0
            for byte in value { status = status * 10 + Int(byte &- 48) }
            stream.status = status
            return
        }
        if name.first == UInt8(ascii: ":") { return }
        stream.headers.append(HTTPHeaderField(lowercaseName: String(decoding: name, as: UTF8.self), value: String(decoding: value, as: UTF8.self)))
    }

    fileprivate func bodyChunk(streamID: Int32, data: UnsafeBufferPointer<UInt8>) {
        guard let stream = streams[streamID], !stream.finished else { return }
        if stream.body.count + data.count > configuration.maxResponseBodyBytes {
            cancel(stream, with: .protocolError("response body larger than \(configuration.maxResponseBodyBytes) bytes"))
            return
        }
        stream.body.append(contentsOf: data)
    }

    fileprivate func frameReceived(_ frame: UnsafePointer<nghttp2_frame>) {
        let type = frame.pointee.hd.type
        if type == UInt8(NGHTTP2_SETTINGS.rawValue) {
            if frame.pointee.hd.flags & UInt8(NGHTTP2_FLAG_ACK.rawValue) == 0, let completion = connectCompletion {
                connectCompletion = nil
                completion(.success(()))
            }
            dispatchWaiting()
        } else if type == UInt8(NGHTTP2_PING.rawValue) && frame.pointee.hd.flags & UInt8(NGHTTP2_FLAG_ACK.rawValue) != 0 {
            var opaque: UInt64 = 0
            withUnsafeMutableBytes(of: &opaque) { raw in
                withUnsafeBytes(of: frame.pointee.ping.opaque_data) { raw.copyMemory(from: $0) }
            }
            opaque = UInt64(bigEndian: opaque)
            if let index = pings.firstIndex(where: { $0.opaque == opaque }) {
                let ping = pings.remove(at: index)
                ping.completion(.success(.nanoseconds(Int64(loop.currentTime() &- ping.started))))
            }
        } else if type == UInt8(NGHTTP2_GOAWAY.rawValue) {
            goAwayReceived = true
            let lastStreamID = frame.pointee.goaway.last_stream_id
            for stream in streams.values where stream.streamID > lastStreamID {
                stream.pendingError = .goAway(retryable: true)
                stream.finish(.failure(.goAway(retryable: true)))
            }
            for stream in waiting { stream.finish(.failure(.goAway(retryable: true))) }
            waiting.removeAll()
        }
    }

    fileprivate func streamClosed(streamID: Int32, errorCode: UInt32) {
        guard let stream = streams.removeValue(forKey: streamID) else { return }
        defer { dispatchWaiting() }
        if stream.finished { return }
        if let error = stream.pendingError {
            stream.finish(.failure(error))
        } else if errorCode == NGHTTP2_REFUSED_STREAM.rawValue && stream.status == 0
                    && stream.attempts <= configuration.refusedStreamRetries && !goAwayReceived {
            // Never processed: try again when a slot frees up.
            stream.streamID = -1
            waiting.insert(stream, at: 0)
        } else if errorCode != 0 && stream.status == 0 {
            stream.finish(.failure(goAwayReceived ? .goAway(retryable: errorCode == NGHTTP2_REFUSED_STREAM.rawValue) : .streamReset(errorCode: errorCode)))
        } else if stream.status == 0 {
            stream.finish(.failure(.protocolError("the stream closed without a response")))
        } else {
            stream.finish(.success(HTTP2ClientResponse(status: stream.status, headers: stream.headers, body: stream.body, streamID: streamID)))
        }
    }

    fileprivate func readRequestBody(stream: ClientStream, into buffer: UnsafeMutablePointer<UInt8>, length: Int,
                                     flags: UnsafeMutablePointer<UInt32>) -> Int {
        let body = stream.request.body ?? []
        let count = min(body.count - stream.requestOffset, length)
        if count > 0 {
            body.withUnsafeBufferPointer { buffer.update(from: $0.baseAddress! + stream.requestOffset, count: count) }
            stream.requestOffset += count
        }
        if stream.requestOffset >= body.count { flags.pointee |= NGHTTP2_DATA_FLAG_EOF.rawValue }
        return count
    }
}

// MARK: - C callbacks: recover the connection from user_data, forward, return 0.

@inline(__always)
private func withClientConnection<R>(_ userData: UnsafeMutableRawPointer?, _ body: (ClientConnection) -> R) -> R {
    withConnection(userData, body)
}

private let clientOnHeader: nghttp2_on_header_callback = { session, frame, name, nameLength, value, valueLength, _, userData in
    guard let frame, frame.pointee.hd.type == UInt8(NGHTTP2_HEADERS.rawValue),
          let pointer = nghttp2_session_get_stream_user_data(session, frame.pointee.hd.stream_id) else { return 0 }
    let stream = Unmanaged<ClientStream>.fromOpaque(pointer).takeUnretainedValue()
    withClientConnection(userData) {
        $0.header(stream: stream, name: UnsafeBufferPointer(start: name, count: nameLength),
                  value: UnsafeBufferPointer(start: value, count: valueLength))
    }
    return 0
}

private let clientOnDataChunk: nghttp2_on_data_chunk_recv_callback = { _, _, streamID, data, length, userData in
    withClientConnection(userData) { $0.bodyChunk(streamID: streamID, data: UnsafeBufferPointer(start: data, count: length)) }
    return 0
}

private let clientOnFrameRecv: nghttp2_on_frame_recv_callback = { _, frame, userData in
    guard let frame else { return 0 }
    withClientConnection(userData) { $0.frameReceived(frame) }
    return 0
}

private let clientOnStreamClose: nghttp2_on_stream_close_callback = { _, streamID, errorCode, userData in
    withClientConnection(userData) { $0.streamClosed(streamID: streamID, errorCode: errorCode) }
    return 0
}

private let clientReadBody: nghttp2_data_source_read_callback = { _, _, buffer, length, flags, source, userData in
    guard let buffer, let flags, let pointer = source?.pointee.ptr else { return Int(NGHTTP2_ERR_CALLBACK_FAILURE.rawValue) }
    let stream = Unmanaged<ClientStream>.fromOpaque(pointer).takeUnretainedValue()
    return withClientConnection(userData) { $0.readRequestBody(stream: stream, into: buffer, length: length, flags: flags) }
}
