/// Answers one stream. Sendable and callable from any thread, at most once (later calls are ignored,
/// as are calls after the peer reset the stream or the connection closed). Called on the connection's
/// loop thread it answers synchronously; from elsewhere it hops to that loop.
public struct HTTP2Responder: Sendable {
    let connectionObject: ServerConnection
    /// The stream this responder answers.
    public let streamID: Int32

    init(connection: ServerConnection, streamID: Int32) {
        self.connectionObject = connection
        self.streamID = streamID
    }

    /// Sends the response. `body` nil or empty → a HEADERS frame with END_STREAM and no DATA frame.
    /// Header names must be lowercase; do not include pseudo-headers (`:status` comes from `status`).
    public func respond(status: Int, headers: [HTTPHeaderField], body: [UInt8]?) {
        let connection = connectionObject
        if connection.loop.inEventLoop {
            connection.respond(streamID: streamID, status: status, headers: headers, body: body)
        } else {
            let streamID = self.streamID
            connection.loop.execute {
                connection.respond(streamID: streamID, status: status, headers: headers, body: body)
            }
        }
    }

    /// Resets the stream with RST_STREAM and `errorCode` (e.g. 0x8 CANCEL, 0x7 REFUSED_STREAM).
    public func reset(errorCode: UInt32) {
        let connection = connectionObject
        if connection.loop.inEventLoop {
            connection.reset(streamID: streamID, errorCode: errorCode)
        } else {
            let streamID = self.streamID
            connection.loop.execute { connection.reset(streamID: streamID, errorCode: errorCode) }
        }
    }

    /// The stream's loop as a task executor: a task that prefers it (`Task(executorPreference:)`) runs on the loop
    /// thread, so a handler whose answer needs `await` answers without a hop to the global executor and back. nil on an
    /// in-memory connection (``EmbeddedHTTP2Connection``).
    public var taskExecutor: NIOLoopExecutor? {
        (connectionObject.loop as? NIOConnectionLoop).map(NIOLoopExecutor.init)
    }

    /// Controls for the connection this stream belongs to.
    public var connection: HTTP2ConnectionControl { HTTP2ConnectionControl(connection: connectionObject) }
}
