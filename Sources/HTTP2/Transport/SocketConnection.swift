import CNghttp2
import COpenSSL
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The byte-moving half shared by server and client connections: a non-blocking socket, optional TLS
/// through memory BIOs, an nghttp2 session fed with `mem_recv` and drained with `mem_send`, a bounded
/// output buffer, epoll interest and back-pressure. Subclasses create the session and handle its callbacks.
///
/// Output is batched: reads only queue work; `endOfTick()` runs `mem_send` once per loop iteration,
/// encrypts all of it with one `SSL_write`, and sends it with one `send()`.
///
/// Confined to its loop's thread; every entry point from elsewhere hops through `loop.execute`.
/// Stored properties opt out of dynamic exclusivity checks (`@exclusivity(unchecked)`): single-threaded,
/// no overlapping accesses, and the checks cost several percent per request. The same holds for the
/// subclasses and for `EventLoop`'s loop-thread state.
class SocketConnection: Selectable, TickObserver {
    enum Phase { case connecting, handshaking, active, closed }

    let loop: EventLoop
    let fd: Int32
    @exclusivity(unchecked) var phase: Phase
    /// The nghttp2 session, created by the subclass once the transport is ready.
    @exclusivity(unchecked) var session: OpaquePointer?

    // TLS (nil for plain TCP).
    @exclusivity(unchecked) private(set) var ssl: OpaquePointer?
    @exclusivity(unchecked) private var sslInput: OpaquePointer?
    @exclusivity(unchecked) private var sslOutput: OpaquePointer?

    // Output: bytes ready for the socket (ciphertext when TLS), and plaintext staged for one SSL_write.
    @exclusivity(unchecked) private var output: [UInt8] = []
    @exclusivity(unchecked) private var outputStart = 0
    @exclusivity(unchecked) private var staging: [UInt8] = []
    let highWaterMark: Int

    @exclusivity(unchecked) private var interest: UInt32 = 0
    @exclusivity(unchecked) private(set) var readPaused = false
    @exclusivity(unchecked) private var tickScheduled = false
    /// Inside `mem_recv`/`mem_send`: the session must not be deleted now, so `close()` is deferred.
    @exclusivity(unchecked) private var inSessionCall = false
    @exclusivity(unchecked) private var closeDeferred = false
    /// Close once everything queued so far (in nghttp2 and in buffers) has been written.
    @exclusivity(unchecked) var closeWhenFlushed = false
    /// Monotonic time of the last bytes read.
    @exclusivity(unchecked) var lastActivity: UInt64
    /// Largest pending output seen on this connection (bytes), for back-pressure accounting.
    @exclusivity(unchecked) private(set) var peakPendingOutput = 0

    var isTLS: Bool { ssl != nil }
    var pendingOutputBytes: Int { output.count - outputStart }

    init(loop: EventLoop, fd: Int32, phase: Phase, highWaterMark: Int) {
        self.loop = loop
        self.fd = fd
        self.phase = phase
        self.highWaterMark = highWaterMark
        self.lastActivity = loop.now
        output.reserveCapacity(64 * 1024)
    }

    /// Adopts an SSL object wired to memory BIOs (the SSL owns the BIOs).
    func attachTLS(ssl: OpaquePointer, input: OpaquePointer, output: OpaquePointer) {
        self.ssl = ssl
        self.sslInput = input
        self.sslOutput = output
        staging.reserveCapacity(64 * 1024)
    }

    /// Registers the socket with the loop for the given events.
    func registerWithLoop(events: UInt32) throws(HTTP2Error) {
        interest = events
        try loop.register(fd: fd, events: events, handler: self)
    }

    // MARK: - Subclass hooks

    /// TLS handshake finished (or plain socket connected): create the session.
    func transportReady() {}
    /// The connection was closed; release what the subclass holds. `session` is already deleted.
    func transportClosed() {}
    /// The client socket finished connecting (subclasses start TLS or the session).
    func connectCompleted() {}
    /// nghttp2 has nothing more to send right now; return true after queueing more frames (e.g. a
    /// GOAWAY held back so that it follows the responses queued before it).
    func outputQueueDrained() -> Bool { false }
    /// Pending output reached a new maximum for this connection.
    func outputPeakRaised(_ bytes: Int) {}

    // MARK: - Events

    func ready(events: UInt32) {
        if phase == .closed { return }
        if events & (EpollEvents.error | EpollEvents.hangup) != 0 && events & EpollEvents.input == 0 {
            if phase == .connecting {
                connectCompleted()  // reports the socket error
            } else {
                close()
            }
            return
        }
        switch phase {
        case .connecting:
            if events & EpollEvents.output != 0 { connectCompleted() }
        case .handshaking:
            if events & EpollEvents.input != 0 { readHandshakeBytes() }
            if phase == .handshaking && events & EpollEvents.output != 0 { writeOut(); updateInterest() }
        case .active:
            if events & EpollEvents.input != 0 { readAndProcess() }
            if phase == .active && events & EpollEvents.output != 0 {
                // The socket drained: send what is pending, then produce more.
                scheduleTick()
            }
        case .closed:
            break
        }
    }

    // MARK: - Handshake

    private func readHandshakeBytes() {
        while true {
            let n = Socket.receive(fd, loop.readBuffer.baseAddress!, EventLoop.readBufferSize)
            if n == -1 { break }
            if n <= 0 {
                close()
                return
            }
            _ = BIO_write(sslInput, loop.readBuffer.baseAddress, Int32(n))
            if n < EventLoop.readBufferSize { break }
        }
        driveHandshake()
    }

    /// Advances the TLS handshake; on success moves to `.active` and calls `transportReady()`.
    func driveHandshake() {
        guard let ssl else { return }
        let rc = SSL_do_handshake(ssl)
        if rc == 1 {
            phase = .active
            writeOut()
            transportReady()
            if phase != .active { return }
            // The peer may have sent application data right behind its Finished message.
            drainTLS()
            scheduleTick()
            return
        }
        let error = SSL_get_error(ssl, rc)
        if error == SSL_ERROR_WANT_READ || error == SSL_ERROR_WANT_WRITE {
            writeOut()
            updateInterest()
            return
        }
        handshakeFailed(reason: drainOpenSSLErrors())
    }

    /// The TLS handshake failed; subclasses may report it. Default: close.
    func handshakeFailed(reason: String) {
        // Try to get the alert out before closing.
        writeOut()
        close()
    }

    // MARK: - Reading

    /// Reads what the socket has (bounded per call, for fairness) and feeds nghttp2.
    final func readAndProcess() {
        lastActivity = loop.now
        var reads = 0
        while !readPaused && phase == .active && reads < 16 {
            reads += 1
            let n = Socket.receive(fd, loop.readBuffer.baseAddress!, EventLoop.readBufferSize)
            if n == -1 { break }
            if n <= 0 {
                close()
                return
            }
            if ssl != nil {
                _ = BIO_write(sslInput, loop.readBuffer.baseAddress, Int32(n))
                drainTLS()
            } else {
                feed(UnsafeRawPointer(loop.readBuffer.baseAddress!), n)
            }
            if n < EventLoop.readBufferSize { break }
        }
        scheduleTick()
    }

    /// Decrypts everything buffered in the TLS input BIO and feeds it to nghttp2.
    final func drainTLS() {
        guard let ssl else { return }
        while phase == .active && !readPaused {
            var got = 0
            let rc = SSL_read_ex(ssl, loop.plainBuffer.baseAddress, EventLoop.readBufferSize, &got)
            if rc == 1 {
                feed(UnsafeRawPointer(loop.plainBuffer.baseAddress!), got)
                continue
            }
            let error = SSL_get_error(ssl, rc)
            if error == SSL_ERROR_WANT_READ || error == SSL_ERROR_WANT_WRITE { break }
            // SSL_ERROR_ZERO_RETURN (close_notify) or a fatal TLS error.
            ERR_clear_error()
            close()
            return
        }
    }

    @inline(__always)
    private func feed(_ pointer: UnsafeRawPointer, _ count: Int) {
        guard let session else { return }
        inSessionCall = true
        let rv = nghttp2_session_mem_recv(session, pointer.assumingMemoryBound(to: UInt8.self), count)
        inSessionCall = false
        if closeDeferred || rv < 0 {
            // Fatal nghttp2 error (e.g. bad client preface): nothing sensible can follow.
            closeDeferred = false
            close()
        }
    }

    // MARK: - Writing

    /// Requests one `endOfTick()` at the end of this loop iteration.
    @inline(__always)
    final func scheduleTick() {
        if tickScheduled || phase == .closed { return }
        tickScheduled = true
        loop.addTickObserver(self)
    }

    func endOfTick() {
        tickScheduled = false
        flush()
    }

    /// Serializes pending frames (bounded by the high-water mark), encrypts them once, sends them.
    /// Repeats while the socket takes everything and nghttp2 has more.
    final func flush() {
        guard phase == .active, let session else { return }
        if pendingOutputBytes > 0 {
            writeOut()  // make room first
            if phase != .active { return }
        }
        while true {
            var hitLimit = false
            inSessionCall = true
            while true {
                if pendingOutputBytes + staging.count >= highWaterMark {
                    hitLimit = true
                    break
                }
                var chunk: UnsafePointer<UInt8>?
                let n = nghttp2_session_mem_send(session, &chunk)
                if n < 0 {
                    closeDeferred = true
                    break
                }
                if n == 0 {
                    if outputQueueDrained() { continue }
                    break
                }
                let bytes = UnsafeBufferPointer(start: chunk, count: n)
                if ssl != nil {
                    staging.append(contentsOf: bytes)
                } else {
                    output.append(contentsOf: bytes)
                }
            }
            inSessionCall = false
            if closeDeferred {
                closeDeferred = false
                close()
                return
            }
            if ssl != nil && !staging.isEmpty { encryptStaging() }
            if closeDeferred {
                closeDeferred = false
                close()
                return
            }
            writeOut()
            if phase != .active { return }
            if !hitLimit || pendingOutputBytes > 0 { break }
        }
        updateBackPressure()
        updateInterest()
        checkFinished()
    }

    private func encryptStaging() {
        guard let ssl else { return }
        var offset = 0
        let total = staging.count
        staging.withUnsafeBytes { raw in
            while offset < total {
                var written = 0
                let rc = SSL_write_ex(ssl, raw.baseAddress! + offset, total - offset, &written)
                if rc != 1 { break }
                offset += written
            }
        }
        if offset < total {
            ERR_clear_error()
            closeDeferred = true
        }
        staging.removeAll(keepingCapacity: true)
    }

    /// Sends pending bytes: the output buffer first, then (TLS) whatever the SSL wrote into its output BIO.
    /// Keeps what the socket does not take.
    final func writeOut() {
        if pendingOutputBytes > 0 {
            let sent = output.withUnsafeBytes { raw in
                Socket.send(fd, raw.baseAddress! + outputStart, raw.count - outputStart)
            }
            if sent < 0 {
                close()
                return
            }
            outputStart += sent
            if outputStart == output.count {
                output.removeAll(keepingCapacity: true)
                outputStart = 0
            } else {
                // Still blocked: append the TLS bytes behind what is queued.
                moveTLSOutputToBuffer(sendFirst: false)
                return
            }
        }
        moveTLSOutputToBuffer(sendFirst: true)
    }

    private func moveTLSOutputToBuffer(sendFirst: Bool) {
        guard let sslOutput else { return }
        var data: UnsafeMutablePointer<CChar>?
        let length = copenssl_BIO_get_mem_data(sslOutput, &data)
        guard length > 0, let data else { return }
        var offset = 0
        if sendFirst {
            let sent = Socket.send(fd, data, length)
            if sent < 0 {
                _ = copenssl_BIO_reset(sslOutput)
                close()
                return
            }
            offset = sent
        }
        if offset < length {
            if outputStart > 0 && outputStart >= output.count / 2 {
                output.removeFirst(outputStart)
                outputStart = 0
            }
            let raw = UnsafeRawPointer(data) + offset
            output.append(contentsOf: UnsafeRawBufferPointer(start: raw, count: length - offset))
        }
        _ = copenssl_BIO_reset(sslOutput)
    }

    /// Stops reading from a peer that does not read: when the socket refused bytes and more output is
    /// queued behind them (or the buffer reached the high-water mark). Resumes once the socket drained.
    private func updateBackPressure() {
        if pendingOutputBytes > peakPendingOutput {
            peakPendingOutput = pendingOutputBytes
            outputPeakRaised(peakPendingOutput)
        }
        guard let session else { return }
        let pending = pendingOutputBytes
        let shouldPause = pending >= highWaterMark || (pending > 0 && nghttp2_session_want_write(session) != 0)
        if shouldPause && !readPaused {
            readPaused = true
        } else if !shouldPause && readPaused {
            readPaused = false
            // Decrypted-but-unprocessed input may be waiting in the TLS BIO.
            if ssl != nil { drainTLS() }
            scheduleTick()
        }
    }

    final func updateInterest() {
        guard phase != .closed else { return }
        var wanted: UInt32 = 0
        if phase == .connecting {
            wanted = EpollEvents.output
        } else {
            if !readPaused { wanted |= EpollEvents.input }
            if pendingOutputBytes > 0 { wanted |= EpollEvents.output }
        }
        if wanted != interest {
            interest = wanted
            loop.modify(fd: fd, events: wanted)
        }
    }

    /// Closes when nghttp2 is done with the session (GOAWAY exchanged, no active streams) and
    /// everything is written, or when `closeWhenFlushed` is set and nothing is left to write.
    private func checkFinished() {
        guard let session, pendingOutputBytes == 0 else { return }
        let wantsWrite = nghttp2_session_want_write(session) != 0
        if closeWhenFlushed && !wantsWrite {
            close()
            return
        }
        if nghttp2_session_want_read(session) == 0 && !wantsWrite {
            close()
        }
    }

    // MARK: - Closing

    /// The loop is stopping: closes the connection now, failing whatever waits on it.
    final func loopStopped() {
        inSessionCall = false   // the loop is past every callback: nothing can be inside nghttp2 now
        close()
    }

    /// Drops the connection now. Safe to call from nghttp2 callbacks (deferred until the call returns).
    func close() {
        if phase == .closed { return }
        if inSessionCall {
            closeDeferred = true
            return
        }
        phase = .closed
        loop.deregister(fd: fd)
        Glibc.close(fd)
        if let session {
            nghttp2_session_del(session)
            self.session = nil
        }
        if let ssl {
            SSL_free(ssl)
            self.ssl = nil
            sslInput = nil
            sslOutput = nil
        }
        output = []
        staging = []
        transportClosed()
    }
}
