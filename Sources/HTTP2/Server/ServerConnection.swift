import CNghttp2
import COpenSSL
import Logging
import Support

/// One accepted HTTP/2 connection: TLS (or h2c), an nghttp2 server session, its streams, and the
/// handler calls. Lives on one loop thread; responders from other threads hop to it.
// @unchecked Sendable: every mutable property is confined to `loop`'s thread. `HTTP2Responder` and
// `HTTP2ConnectionControl` only touch it after checking `loop.inEventLoop` or via `loop.execute`.
final class ServerConnection: ConnectionCore, @unchecked Sendable {
    let id: UInt64
    let context: ServerContext
    let loopState: ServerLoopState
    let remoteAddress: String
    @exclusivity(unchecked) private(set) var info: HTTP2ConnectionInfo
    /// The open streams (announced by nghttp2 and not yet closed), in no order; each knows its place
    /// (`ServerStream.slot`). nghttp2 keeps a pointer to each as its stream user data, which is how a stream is
    /// found by id: one lookup in nghttp2's own table, instead of hashing the id into a second table of ours on
    /// every open, lookup and close.
    @exclusivity(unchecked) private var openStreams: [ServerStream] = []
    /// The client stream ids that opened a request, for the lower-stream-id check (``beginHeadersFrame``).
    private var openedStreams = OpenedStreamIDs()
    /// The stream the last callback touched (headers of one stream arrive back to back).
    @exclusivity(unchecked) private var currentStream: ServerStream?
    @exclusivity(unchecked) private var opened = false
    /// Loop time the connection was accepted: the preface timeout counts from here.
    private let acceptedAt: UInt64
    @exclusivity(unchecked) private var prefaceReceived = false
    /// When a timeout's GOAWAY was queued (nil = not timed out).
    @exclusivity(unchecked) private var timedOutAt: UInt64?
    /// Lays out each response's header block for nghttp2.
    @exclusivity(unchecked) private var responseHeaders = HeaderBlockBuilder()
    /// The previous request's fields, reused by the next request where it repeats them.
    @exclusivity(unchecked) private var repeated = RepeatedFieldCache()
    /// The handler's state for this connection (`HTTP2RequestHandler.makeConnectionContext`).
    @exclusivity(unchecked) private var handlerContext: (any AnyObject & Sendable)?
    @exclusivity(unchecked) private var pendingGoAway: (errorCode: UInt32, debugData: [UInt8], thenClose: Bool, lastStreamID: Int32?)?
    /// GOAWAYs this server asked for (`goAway`) and not yet seen sent: any other GOAWAY is nghttp2's own.
    @exclusivity(unchecked) private var ownGoAwaysQueued = 0
    /// nghttp2 ended the session over the peer's input (e.g. COMPRESSION_ERROR for a header field past its
    /// decoder's limit): requests begun on it are refused, not merely abandoned by the peer.
    @exclusivity(unchecked) private var sessionRefusedInput = false
    /// SETTINGS_MAX_CONCURRENT_STREAMS as announced, and a lower limit held until the open streams close.
    @exclusivity(unchecked) private var streamLimit = StreamLimitGate()
    private let maxBodyBytes: Int
    private let maxHeaderListSize: Int

    init(driver: any ConnectionDriver, peer: String, loop: any ConnectionLoop, context: ServerContext, loopState: ServerLoopState,
         listener: Int = 0) {
        id = context.configuration.connectionIDs?() ?? nextConnectionID.wrappingAdd(1, ordering: .relaxed).oldValue
        self.context = context
        self.loopState = loopState
        remoteAddress = peer
        maxBodyBytes = context.configuration.maxBodyBytes
        maxHeaderListSize = Int(context.configuration.maxHeaderListSize)
        acceptedAt = loop.currentTime()
        info = HTTP2ConnectionInfo(id: id, remoteAddress: peer, peerCertificateDER: nil, alpn: nil, isTLS: context.tls != nil,
                                   listener: listener)
        super.init(loop: loop, driver: driver, phase: context.tls != nil ? .handshaking : .active,
                   highWaterMark: context.configuration.outputHighWaterMark)
    }

    /// Hands itself to its driver and starts the TLS handshake or the h2c session. Loop thread only.
    func start() {
        loopState.connections[id] = self
        guard attachToDriver() else {
            transportClosed()
            return
        }
        if let tls = context.tls {
            guard let (ssl, input, output) = tls.makeSSL() else {
                close()
                return
            }
            attachTLS(ssl: ssl, input: input, output: output)
            // A peer that never completes the handshake is closed by `checkTimeouts` (preface timeout).
        } else {
            transportReady()
        }
    }

    // MARK: - Session setup

    override func transportReady() {
        if let ssl {
            info.peerCertificateDER = peerCertificateDER(ssl: ssl)
            info.alpn = selectedALPN(ssl: ssl)
        }
        guard createSession() else {
            close()
            return
        }
        let configuration = context.configuration
        let maxStreams = configuration.initialMaxConcurrentStreams?(info) ?? configuration.maxConcurrentStreams
        var settings: [nghttp2_settings_entry] = [
            .init(settings_id: Int32(NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS.rawValue), value: maxStreams),
            .init(settings_id: Int32(NGHTTP2_SETTINGS_MAX_HEADER_LIST_SIZE.rawValue), value: configuration.maxHeaderListSize),
            .init(settings_id: Int32(NGHTTP2_SETTINGS_INITIAL_WINDOW_SIZE.rawValue), value: configuration.initialWindowSize),
            .init(settings_id: Int32(NGHTTP2_SETTINGS_MAX_FRAME_SIZE.rawValue), value: configuration.maxFrameSize),
        ]
        _ = nghttp2_submit_settings(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), &settings, settings.count)
        streamLimit.announcedInitially(maxStreams)
        opened = true
        configuration.logger.trace(
            "connection opened",
            metadata: ["connection": "\(id)", "peer": "\(remoteAddress)", "alpn": "\(info.alpn ?? "none")"])
        context.handler.connectionOpened(info)
        handlerContext = context.handler.makeConnectionContext(for: info)
        if context.shuttingDown.load(ordering: .relaxed) {
            beginGracefulShutdown()
        }
        scheduleTick()
    }

    private func createSession() -> Bool {
        createSession(asServer: true) { callbacks, _ in
            nghttp2_session_callbacks_set_on_begin_frame_callback(callbacks, serverOnBeginFrame)
            nghttp2_session_callbacks_set_on_begin_headers_callback(callbacks, serverOnBeginHeaders)
            nghttp2_session_callbacks_set_on_header_callback(callbacks, serverOnHeader)
            nghttp2_session_callbacks_set_on_data_chunk_recv_callback(callbacks, serverOnDataChunk)
            nghttp2_session_callbacks_set_on_frame_recv_callback(callbacks, serverOnFrameRecv)
            nghttp2_session_callbacks_set_on_stream_close_callback(callbacks, serverOnStreamClose)
            nghttp2_session_callbacks_set_on_frame_send_callback(callbacks, serverOnFrameSend)
            // Closed streams are kept (nghttp2's default, unlike `no_closed_streams`): a DATA or HEADERS frame on a
            // stream the peer reset or finished must get STREAM_CLOSED (RFC 9113 §5.1), which nghttp2 can only tell
            // while it remembers the stream. It keeps at most MAX_CONCURRENT_STREAMS (minus the open ones) per
            // session, dropping the oldest, so memory stays bounded even under rapid reset.
        }
    }

    // MARK: - Timeouts

    /// Notes that the peer's connection preface arrived (nghttp2 accepts no frame before it).
    fileprivate func prefaceArrived() {
        prefaceReceived = true
    }

    /// Closes the connection if it is past the preface or idle timeout; called by its loop's periodic sweep
    /// (`ServerLoopState`), so the only per-request cost is `lastActivity`, stamped on each read.
    func checkTimeouts(now: UInt64) {
        let configuration = context.configuration
        let prefaceLimit = configuration.prefaceTimeout.nanoseconds
        if let timedOutAt {
            // GOAWAY was queued; a peer that does not read it (so the output never drains) is dropped.
            if now &- timedOutAt >= prefaceLimit { close() }
            return
        }
        switch phase {
        case .handshaking:
            if now &- acceptedAt >= prefaceLimit {
                configuration.logger.debug("TLS handshake timed out", metadata: ["peer": "\(remoteAddress)"])
                close()
            }
        case .active:
            if !prefaceReceived {
                if now &- acceptedAt >= prefaceLimit { timeOut(why: "no connection preface") }
            } else if let idle = configuration.idleTimeout?.nanoseconds, openStreams.isEmpty, now &- lastActivity >= idle {
                timeOut(why: "idle")
            }
        case .connecting, .closed:
            break
        }
    }

    private func timeOut(why: String) {
        timedOutAt = loop.currentTime()
        context.configuration.logger.trace(
            "closing connection: timeout", metadata: ["connection": "\(id)", "peer": "\(remoteAddress)", "why": "\(why)"])
        goAway(errorCode: UInt32(NGHTTP2_NO_ERROR.rawValue), debugData: context.configuration.timeoutGoAwayDebugData, thenClose: true)
    }

    // MARK: - nghttp2 callbacks (called inside mem_recv)

    @inline(__always)
    private func stream(_ streamID: Int32) -> ServerStream? {
        if let current = currentStream, current.streamID == streamID { return current }
        let found = openStream(streamID)
        currentStream = found
        return found
    }

    /// The open stream `streamID`, from nghttp2's stream user data (nil once nghttp2 has closed the stream).
    @inline(__always)
    private func openStream(_ streamID: Int32) -> ServerStream? {
        guard let session, let pointer = nghttp2_session_get_stream_user_data(session, streamID) else { return nil }
        return Unmanaged<ServerStream>.fromOpaque(pointer).takeUnretainedValue()
    }

    fileprivate func beginRequest(streamID: Int32) {
        guard let session else { return }
        let stream = ServerStream(
            streamID: streamID, connectionID: id, remoteAddress: remoteAddress,
            peerCertificateDER: info.peerCertificateDER, alpn: info.alpn, connectionContext: handlerContext)
        // Unretained: `openStreams` holds the stream until nghttp2 closes it (or the session goes).
        guard nghttp2_session_set_stream_user_data(session, streamID, Unmanaged.passUnretained(stream).toOpaque()) == 0 else {
            return
        }
        stream.slot = openStreams.count
        openStreams.append(stream)
        currentStream = stream
        openedStreams.add(streamID)
    }

    /// A HEADERS frame is about to be read: one that would open a stream whose id is below one the client already
    /// opened, and that was never opened itself, is a connection error PROTOCOL_ERROR (RFC 9113 §5.1.1). nghttp2
    /// 1.52 only ignores it. Frames on streams nghttp2 still knows (trailers, closed streams) are its business.
    fileprivate func beginHeadersFrame(streamID: Int32) {
        guard let session, streamID & 1 == 1, let highest = openedStreams.highest, streamID < highest,
              nghttp2_session_find_stream(session, streamID) == nil, openedStreams.neverOpened(streamID) else { return }
        _ = nghttp2_session_terminate_session(session, UInt32(NGHTTP2_PROTOCOL_ERROR.rawValue))
    }

    fileprivate func header(streamID: Int32, name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>) {
        guard let stream = stream(streamID), !stream.headerListTooLarge else { return }
        stream.headerListSize += name.count + value.count + 32
        if stream.headerListSize > maxHeaderListSize {
            // Refused (431); the fields read so far are kept for `HTTP2RequestHandler.refused`, bounded by the limit.
            stream.headerListTooLarge = true
            return
        }
        if name.count > 0 && name[0] == UInt8(ascii: ":") {
            switch name.count {
            case 5:  // :path
                stream.request.path = repeated.path(value)
            case 7:  // :method or :scheme
                if name[1] == UInt8(ascii: "m") {
                    stream.request.method = repeated.method(value)
                } else {
                    stream.request.scheme = repeated.scheme(value)
                }
            case 10:  // :authority
                stream.request.authority = repeated.authority(value)
            default:
                break
            }
            return
        }
        let index = stream.request.headers.count
        if index == 0 { stream.request.headers.reserveCapacity(max(8, repeated.headers.count)) }
        stream.request.headers.append(repeated.field(name: name, value: value, hint: index))
    }

    fileprivate func bodyChunk(streamID: Int32, data: UnsafeBufferPointer<UInt8>) {
        guard let stream = stream(streamID) else { return }
        if stream.request.bodyOverflowed { return }
        let room = maxBodyBytes - stream.request.body.count
        if data.count <= room {
            stream.request.body.append(contentsOf: data)
        } else {
            // Keep the first `maxBodyBytes` bytes, discard the rest (nghttp2 still sends WINDOW_UPDATEs).
            if room > 0 { stream.request.body.append(contentsOf: UnsafeBufferPointer(rebasing: data[0..<room])) }
            stream.request.bodyOverflowed = true
        }
    }

    fileprivate func requestComplete(streamID: Int32) {
        guard let stream = stream(streamID), !stream.delivered else { return }
        stream.delivered = true
        if stream.headerListTooLarge {
            stream.request.receivedAt = loop.now
            context.handler.refused(stream.request, status: 431)
            respond(streamID: streamID, status: 431, headers: [], body: nil)
            return
        }
        repeated.remember(headers: stream.request.headers)
        stream.request.receivedAt = loop.now
        let request = stream.takeRequest()
        context.handler.handle(request, responder: HTTP2Responder(connection: self, streamID: streamID))
        if let gate = context.configuration.intakeGate, gate.isShut { waitForIntake(gate) }
    }

    /// The application's consumer fell behind (``HTTP2ServerConfiguration/intakeGate`` is shut): reads nothing more
    /// until the gate opens, so the loop stays free and the sender is slowed by TCP and HTTP/2 flow control.
    private func waitForIntake(_ gate: IntakeGate) {
        guard !inputHeld else { return }
        holdInput()
        // Always through the loop's queue: the gate may be open again already, and this runs inside nghttp2's
        // callback, where reading more would reenter the session.
        let loop = self.loop
        gate.whenOpen { [self] in
            _ = loop.execute { self.releaseInput() }
        }
    }

    fileprivate func goAwaySent(errorCode: UInt32) {
        if ownGoAwaysQueued > 0 {
            ownGoAwaysQueued -= 1
        } else if errorCode != UInt32(NGHTTP2_NO_ERROR.rawValue) {
            sessionRefusedInput = true
        }
    }

    fileprivate func streamClosed(streamID: Int32) {
        if currentStream?.streamID == streamID { currentStream = nil }
        // Still found here: nghttp2 marks a stream closed after this callback returns.
        if let stream = openStream(streamID), stream.slot < openStreams.count, openStreams[stream.slot] === stream {
            let last = openStreams.removeLast()
            if last !== stream {
                openStreams[stream.slot] = last
                last.slot = stream.slot
            }
        }
        if openStreams.isEmpty, let limit = streamLimit.streamsDrained() { submitMaxConcurrentStreams(limit) }
    }

    fileprivate func readResponseBody(
        stream: ServerStream, into buffer: UnsafeMutablePointer<UInt8>, length: Int, flags: UnsafeMutablePointer<UInt32>
    ) -> Int {
        let remaining = stream.responseBody.count - stream.responseOffset
        let count = min(remaining, length)
        if count > 0 {
            stream.responseBody.withUnsafeBufferPointer { source in
                buffer.update(from: source.baseAddress! + stream.responseOffset, count: count)
            }
            stream.responseOffset += count
        }
        if stream.responseOffset == stream.responseBody.count {
            flags.pointee |= NGHTTP2_DATA_FLAG_EOF.rawValue
            stream.responseBody = []
        }
        return count
    }

    // MARK: - Answering (loop thread)

    func respond(streamID: Int32, status: Int, headers: [HTTPHeaderField], body: [UInt8]?) {
        guard phase == .active, let session, let stream = openStream(streamID), !stream.responded else { return }
        stream.responded = true
        var provider = nghttp2_data_provider()
        let hasBody = !(body?.isEmpty ?? true)
        if hasBody, let body {
            stream.responseBody = body
            provider.source.ptr = Unmanaged.passUnretained(stream).toOpaque()
            provider.read_callback = serverReadBody
        }
        responseHeaders.withBlock(status: status, fields: headers) { nva, count in
            if hasBody {
                _ = nghttp2_submit_response(session, streamID, nva, count, &provider)
            } else {
                _ = nghttp2_submit_response(session, streamID, nva, count, nil)
            }
        }
        scheduleTick()
    }

    func reset(streamID: Int32, errorCode: UInt32) {
        guard phase == .active, let session, let stream = openStream(streamID), !stream.responded else { return }
        stream.responded = true
        _ = nghttp2_submit_rst_stream(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), streamID, errorCode)
        scheduleTick()
    }

    /// Announces a new SETTINGS_MAX_CONCURRENT_STREAMS: at once when raised, once the open streams have closed when
    /// lowered while some are open (``StreamLimitGate``).
    func setMaxConcurrentStreams(_ value: UInt32) {
        guard phase == .active, session != nil else { return }
        if let limit = streamLimit.request(value, openStreams: openStreams.count) { submitMaxConcurrentStreams(limit) }
    }

    private func submitMaxConcurrentStreams(_ value: UInt32) {
        guard phase == .active, let session else { return }
        var entry = nghttp2_settings_entry(settings_id: Int32(NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS.rawValue), value: value)
        _ = nghttp2_submit_settings(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), &entry, 1)
        scheduleTick()
    }

    /// Queues GOAWAY behind everything already submitted (so a response answered just before it,
    /// body included, reaches the peer first: some clients drop frames that follow a GOAWAY).
    func goAway(errorCode: UInt32, debugData: [UInt8], thenClose: Bool, lastStreamID: Int32? = nil) {
        guard phase == .active, session != nil else {
            if phase == .handshaking { close() }
            return
        }
        pendingGoAway = (errorCode, debugData, thenClose, lastStreamID)
        scheduleTick()
    }

    override func outputQueueDrained() -> Bool {
        guard let (errorCode, debugData, thenClose, explicitLastStreamID) = pendingGoAway, let session else { return false }
        pendingGoAway = nil
        let lastStreamID = explicitLastStreamID ?? nghttp2_session_get_last_proc_stream_id(session)
        let rv = debugData.withUnsafeBufferPointer { data in
            nghttp2_submit_goaway(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), lastStreamID, errorCode, data.baseAddress, data.count)
        }
        if rv == 0 { ownGoAwaysQueued += 1 }
        if thenClose { closeWhenFlushed = true }
        return true
    }

    /// Server shutdown: GOAWAY(NO_ERROR); nghttp2 ends the session once in-flight streams are done.
    func beginGracefulShutdown() {
        if phase == .handshaking {
            close()
            return
        }
        goAway(errorCode: UInt32(NGHTTP2_NO_ERROR.rawValue), debugData: [], thenClose: false)
    }

    override func outputPeakRaised(_ bytes: Int) {
        var current = context.peakPendingOutput.load(ordering: .relaxed)
        while bytes > current {
            let (exchanged, original) = context.peakPendingOutput.compareExchange(
                expected: current, desired: bytes, ordering: .relaxed)
            if exchanged { break }
            current = original
        }
    }

    override func handshakeFailed(reason: String) {
        context.configuration.logger.debug(
            "TLS handshake failed", metadata: ["peer": "\(remoteAddress)", "reason": "\(reason)"])
        super.handshakeFailed(reason: reason)
    }

    override func transportClosed() {
        context.configuration.logger.trace("connection closed", metadata: ["connection": "\(id)", "peer": "\(remoteAddress)"])
        if sessionRefusedInput {
            // Requests nghttp2 refused with the session (no answer could be sent: status 0), in stream order.
            for stream in openStreams.sorted(by: { $0.streamID < $1.streamID }) where !stream.delivered {
                stream.delivered = true
                stream.request.receivedAt = loop.now
                context.handler.refused(stream.request, status: 0)
            }
        }
        openStreams.removeAll()
        currentStream = nil
        loopState.connections.removeValue(forKey: id)
        if context.openConnections.wrappingSubtract(1, ordering: .relaxed).newValue == 0 { context.drain.drained() }
        if opened {
            opened = false
            handlerContext = nil
            context.handler.connectionClosed(info)
        }
    }
}

// MARK: - C callbacks: recover the connection from user_data, forward, return 0.

@inline(__always)
private func withServerConnection<R>(_ userData: UnsafeMutableRawPointer?, _ body: (ServerConnection) -> R) -> R {
    withConnection(userData, body)
}

private let serverOnBeginFrame: nghttp2_on_begin_frame_callback = { _, header, userData in
    guard let header, header.pointee.type == UInt8(NGHTTP2_HEADERS.rawValue) else { return 0 }
    withServerConnection(userData) { $0.beginHeadersFrame(streamID: header.pointee.stream_id) }
    return 0
}

private let serverOnBeginHeaders: nghttp2_on_begin_headers_callback = { _, frame, userData in
    guard let frame else { return 0 }
    if frame.pointee.hd.type == UInt8(NGHTTP2_HEADERS.rawValue) && frame.pointee.headers.cat == NGHTTP2_HCAT_REQUEST {
        withServerConnection(userData) { $0.beginRequest(streamID: frame.pointee.hd.stream_id) }
    }
    return 0
}

private let serverOnHeader: nghttp2_on_header_callback = { _, frame, name, nameLength, value, valueLength, _, userData in
    guard let frame, frame.pointee.hd.type == UInt8(NGHTTP2_HEADERS.rawValue),
          frame.pointee.headers.cat == NGHTTP2_HCAT_REQUEST else { return 0 }
    withServerConnection(userData) {
        $0.header(
            streamID: frame.pointee.hd.stream_id,
            name: UnsafeBufferPointer(start: name, count: nameLength),
            value: UnsafeBufferPointer(start: value, count: valueLength))
    }
    return 0
}

private let serverOnDataChunk: nghttp2_on_data_chunk_recv_callback = { _, _, streamID, data, length, userData in
    withServerConnection(userData) { $0.bodyChunk(streamID: streamID, data: UnsafeBufferPointer(start: data, count: length)) }
    return 0
}

private let serverOnFrameRecv: nghttp2_on_frame_recv_callback = { _, frame, userData in
    guard let frame else { return 0 }
    let type = frame.pointee.hd.type
    if type == UInt8(NGHTTP2_SETTINGS.rawValue) {
        // The first frame nghttp2 accepts is the preface's SETTINGS; later ones are rare, so this costs nothing.
        withServerConnection(userData) { $0.prefaceArrived() }
        return 0
    }
    if (type == UInt8(NGHTTP2_HEADERS.rawValue) || type == UInt8(NGHTTP2_DATA.rawValue))
        && frame.pointee.hd.flags & UInt8(NGHTTP2_FLAG_END_STREAM.rawValue) != 0 {
        withServerConnection(userData) { $0.requestComplete(streamID: frame.pointee.hd.stream_id) }
    }
    return 0
}

private let serverOnFrameSend: nghttp2_on_frame_send_callback = { _, frame, userData in
    guard let frame, frame.pointee.hd.type == UInt8(NGHTTP2_GOAWAY.rawValue) else { return 0 }
    withServerConnection(userData) { $0.goAwaySent(errorCode: frame.pointee.goaway.error_code) }
    return 0
}

private let serverOnStreamClose: nghttp2_on_stream_close_callback = { _, streamID, _, userData in
    withServerConnection(userData) { $0.streamClosed(streamID: streamID) }
    return 0
}

private let serverReadBody: nghttp2_data_source_read_callback = { _, _, buffer, length, flags, source, userData in
    guard let buffer, let flags, let pointer = source?.pointee.ptr else { return Int(NGHTTP2_ERR_CALLBACK_FAILURE.rawValue) }
    let stream = Unmanaged<ServerStream>.fromOpaque(pointer).takeUnretainedValue()
    return withServerConnection(userData) { $0.readResponseBody(stream: stream, into: buffer, length: length, flags: flags) }
}
