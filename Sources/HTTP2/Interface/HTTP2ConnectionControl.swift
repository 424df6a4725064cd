import Support

/// Connection-level controls, callable from any thread (hops to the connection's loop when needed).
public struct HTTP2ConnectionControl: Sendable {
    let connectionObject: ServerConnection

    init(connection: ServerConnection) {
        self.connectionObject = connection
    }

    /// The connection identifier (matches `HTTP2Request.connectionID`).
    public var id: UInt64 { connectionObject.id }

    /// Sends a SETTINGS frame with a new SETTINGS_MAX_CONCURRENT_STREAMS. nghttp2 enforces it
    /// (REFUSED_STREAM for streams beyond it) as soon as it is queued.
    public func setMaxConcurrentStreams(_ n: UInt32) {
        run { $0.setMaxConcurrentStreams(n) }
    }

    /// Sends GOAWAY with `errorCode` and `debugData` (APNs: JSON `{"reason":…}`); last-stream-id is the
    /// last stream processed. `thenClose`: close the TCP connection as soon as everything queued so far
    /// (responses, the GOAWAY) is written. Otherwise in-flight streams finish, then the connection closes.
    public func goAway(errorCode: UInt32, debugData: [UInt8], thenClose: Bool) {
        run { $0.goAway(errorCode: errorCode, debugData: debugData, thenClose: thenClose) }
    }

    /// GOAWAY with an explicit last-stream-id (tests use it to exercise client retry logic).
    func goAway(errorCode: UInt32, debugData: [UInt8], thenClose: Bool, lastStreamID: Int32) {
        run { $0.goAway(errorCode: errorCode, debugData: debugData, thenClose: thenClose, lastStreamID: lastStreamID) }
    }

    /// Drops the TCP connection now, without GOAWAY.
    public func close() {
        run { $0.close() }
    }

    /// Runs `task` on the connection's loop once `delay` has passed, with the loop's own timer: a SwiftNIO scheduled
    /// task, or an embedded connection's clock (``EmbeddedHTTP2Connection/advanceTime(by:)``). A responder called from
    /// `task` answers at once, with no further hop. Dropped if the loop stops first.
    public func schedule(after delay: Duration, _ task: @escaping @Sendable () -> Void) {
        let nanoseconds = delay.nanoseconds
        run { $0.loop.scheduleLocal(in: nanoseconds, task) }
    }

    private func run(_ body: @escaping @Sendable (ServerConnection) -> Void) {
        let connection = connectionObject
        if connection.loop.inEventLoop {
            body(connection)
        } else {
            connection.loop.execute { body(connection) }
        }
    }
}
