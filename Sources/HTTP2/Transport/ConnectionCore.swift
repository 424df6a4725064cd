import CNghttp2
import COpenSSL

/// The connection engine shared by server and client connections, with no descriptor in it: bytes come in through
/// ``receive(_:)``, go out through its ``ConnectionDriver``. Inside: optional TLS through memory BIOs, the nghttp2
/// session fed with `mem_recv` and drained with `mem_send` (nghttp2's libevent-server.c flow), a bounded output
/// buffer and the back-pressure state. Subclasses create the session and handle its callbacks. Which driver moves
/// the bytes — a SwiftNIO channel (``NIOChannelDriver``) or memory (``EmbeddedDriver``) — is not its concern.
///
/// Output is batched: input only queues work; `endOfTick()` runs `mem_send` once per loop iteration, encrypts all of
/// it with one `SSL_write`, and hands it to the driver in one write.
///
/// Confined to its loop's thread; every entry point from elsewhere hops through `loop.execute`.
/// Stored properties opt out of dynamic exclusivity checks (`@exclusivity(unchecked)`): single-threaded,
/// no overlapping accesses, and the checks cost several percent per request. The same holds for the
/// subclasses and for the loops' own state.
class ConnectionCore: TickObserver {
    enum Phase { case connecting, handshaking, active, closed }

    /// Size of the loop's `plainBuffer`, and the most bytes a driver hands over in one call.
    static let readBufferSize = 64 * 1024

    /// The loop it lives on: SwiftNIO's (``NIOConnectionLoop``) or an embedded one (``EmbeddedLoop``).
    let loop: any ConnectionLoop
    /// Moves this connection's bytes; told to close with it.
    let driver: any ConnectionDriver
    @exclusivity(unchecked) var phase: Phase
    /// The nghttp2 session, created by the subclass once the transport is ready.
    @exclusivity(unchecked) var session: OpaquePointer?

    // TLS (nil for plain TCP).
    @exclusivity(unchecked) private(set) var ssl: OpaquePointer?
    @exclusivity(unchecked) private var sslInput: OpaquePointer?
    @exclusivity(unchecked) private var sslOutput: OpaquePointer?

    // Output: bytes the driver has not taken yet (ciphertext when TLS), and plaintext staged for one SSL_write.
    @exclusivity(unchecked) private var output: [UInt8] = []
    @exclusivity(unchecked) private var outputStart = 0
    @exclusivity(unchecked) private var staging: [UInt8] = []
    let highWaterMark: Int

    @exclusivity(unchecked) private var interest: UInt32 = 0
    @exclusivity(unchecked) private(set) var readPaused = false
    /// Input held by the application (``holdInput()``): its consumer fell behind, so no more requests are read.
    @exclusivity(unchecked) private(set) var inputHeld = false
    @exclusivity(unchecked) private var tickScheduled = false
    /// Inside `mem_recv`/`mem_send`: the session must not be deleted now, so `close()` is deferred.
    @exclusivity(unchecked) private var inSessionCall = false
    @exclusivity(unchecked) private var closeDeferred = false
    /// Close once everything queued so far (in nghttp2 and in buffers) has been written.
    @exclusivity(unchecked) var closeWhenFlushed = false
    /// Loop time of the last bytes received.
    @exclusivity(unchecked) var lastActivity: UInt64
    /// Largest pending output seen on this connection (bytes), for back-pressure accounting.
    @exclusivity(unchecked) private(set) var peakPendingOutput = 0

    var isTLS: Bool { ssl != nil }
    var pendingOutputBytes: Int { output.count - outputStart }
    /// Whether the driver should read and hand over more bytes now (not while back-pressure holds input).
    var wantsInput: Bool { !readPaused && !inputHeld && (phase == .active || phase == .handshaking) }

    init(loop: any ConnectionLoop, driver: any ConnectionDriver, phase: Phase, highWaterMark: Int) {
        self.loop = loop
        self.driver = driver
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

    /// Hands the connection to its driver, which from now on delivers its bytes; a driver that cannot take it
    /// (e.g. its channel closed before the connection attached) closes the connection.
    func attachToDriver() -> Bool {
        interest = phase == .connecting ? 0 : IOEvents.input
        do {
            try driver.attach(self, interest: interest)
            return true
        } catch {
            phase = .closed
            driver.close()
            return false
        }
    }

    /// Creates the nghttp2 session with this connection as its user data. `install` sets the callbacks (and options)
    /// the subclass handles; each callback gets its connection back with ``withConnection(_:_:)`` — the one idiom
    /// both the server's and the client's callbacks use.
    final func createSession(asServer: Bool, install: (_ callbacks: OpaquePointer, _ option: OpaquePointer) -> Void) -> Bool {
        var callbacks: OpaquePointer?
        guard nghttp2_session_callbacks_new(&callbacks) == 0, let callbacks else { return false }
        defer { nghttp2_session_callbacks_del(callbacks) }
        var option: OpaquePointer?
        guard nghttp2_option_new(&option) == 0, let option else { return false }
        defer { nghttp2_option_del(option) }
        install(callbacks, option)
        var newSession: OpaquePointer?
        let userData = Unmanaged.passUnretained(self).toOpaque()
        let rc = asServer
            ? nghttp2_session_server_new2(&newSession, callbacks, userData, option)
            : nghttp2_session_client_new2(&newSession, callbacks, userData, option)
        guard rc == 0, let newSession else { return false }
        session = newSession
        return true
    }

    // MARK: - Subclass hooks

    /// TLS handshake finished (or plain socket connected): create the session.
    func transportReady() {}
    /// The connection was closed; release what the subclass holds. `session` is already deleted.
    func transportClosed() {}
    /// The client's transport finished connecting — `error` is nil on success, else why not (subclasses start TLS or
    /// the session, or report the failure).
    func connectCompleted(error: String?) {}
    /// nghttp2 has nothing more to send right now; return true after queueing more frames (e.g. a
    /// GOAWAY held back so that it follows the responses queued before it).
    func outputQueueDrained() -> Bool { false }
    /// Pending output reached a new maximum for this connection.
    func outputPeakRaised(_ bytes: Int) {}

    // MARK: - Input (from the driver)

    /// Bytes from the peer: to TLS during the handshake, then (decrypted when TLS) to nghttp2. The driver calls
    /// this while ``wantsInput`` holds, with at most one read's worth at a time.
    final func receive(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        switch phase {
        case .handshaking:
            _ = BIO_write(sslInput, base, Int32(clamping: bytes.count))
            driveHandshake()
        case .active:
            lastActivity = loop.now
            if ssl != nil {
                _ = BIO_write(sslInput, base, Int32(clamping: bytes.count))
                drainTLS()
            } else {
                feed(base, bytes.count)
            }
            scheduleTick()
        case .connecting, .closed:
            break
        }
    }

    /// The peer closed its side, or the transport failed: the connection ends (a connect in progress fails).
    final func transportEnded(error: String? = nil) {
        if phase == .connecting {
            connectCompleted(error: error ?? "the connection was closed")
        } else {
            close()
        }
    }

    /// The driver can take output again: finish the handshake's flight, or send what is pending and produce more.
    final func transportWritable() {
        switch phase {
        case .handshaking:
            writeOut()
            updateInterest()
        case .active:
            scheduleTick()
        case .connecting, .closed:
            break
        }
    }

    // MARK: - Handshake

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

    /// Decrypts everything buffered in the TLS input BIO and feeds it to nghttp2.
    final func drainTLS() {
        guard let ssl else { return }
        while phase == .active && !readPaused && !inputHeld {
            var got = 0
            let rc = SSL_read_ex(ssl, loop.plainBuffer.baseAddress, ConnectionCore.readBufferSize, &got)
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
    /// Repeats while the driver takes everything and nghttp2 has more.
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

    /// Hands pending bytes to the driver: the output buffer first, then (TLS) whatever the SSL wrote into its
    /// output BIO. Keeps what the driver does not take.
    final func writeOut() {
        if pendingOutputBytes > 0 {
            let sent = output.withUnsafeBytes { raw in
                driver.write(raw.baseAddress! + outputStart, raw.count - outputStart)
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
            let sent = driver.write(data, length)
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

    /// Stops reading from a peer that does not read: when the driver refused bytes and more output is
    /// queued behind them (or the buffer reached the high-water mark). Resumes once the driver drained.
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

    /// Reads nothing more from the peer until ``releaseInput()``: what was read already is still handled (at most one
    /// read's worth), the rest waits in the TLS buffer, the driver and the kernel. Safe inside nghttp2 callbacks.
    final func holdInput() {
        guard !inputHeld, phase != .closed else { return }
        inputHeld = true
        updateInterest()
    }

    /// Reads again after ``holdInput()``: first what was decrypted and held, then the driver's and the socket's.
    final func releaseInput() {
        guard inputHeld else { return }
        inputHeld = false
        guard phase == .active else { return }
        if ssl != nil && !readPaused { drainTLS() }
        updateInterest()
        scheduleTick()
    }

    final func updateInterest() {
        guard phase != .closed else { return }
        let wanted: UInt32 = phase != .connecting && !readPaused && !inputHeld ? IOEvents.input : 0
        if wanted != interest {
            interest = wanted
            driver.setInterest(wanted)
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

    /// Drops the connection now. Safe to call from nghttp2 callbacks (deferred until the call returns).
    func close() {
        if phase == .closed { return }
        if inSessionCall {
            closeDeferred = true
            return
        }
        phase = .closed
        driver.close()
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

/// The connection behind an nghttp2 callback's user data (set by ``ConnectionCore/createSession(asServer:install:)``),
/// without retain or release: the session never outlives its connection.
@inline(__always)
func withConnection<Connection: ConnectionCore, Result>(
    _ userData: UnsafeMutableRawPointer?, _ body: (Connection) -> Result
) -> Result {
    Unmanaged<Connection>.fromOpaque(userData!)._withUnsafeGuaranteedRef(body)
}
