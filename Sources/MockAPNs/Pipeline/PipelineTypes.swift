import APNsModel

/// Where a request came from, as the pipeline needs to know it (transport-independent).
public struct PipelineConnection: Sendable {
    /// The connection's id; state such as token binding is kept per id.
    public var id: UInt64
    /// The peer's address, `host:port`.
    public var remote: String
    /// The HTTP/2 stream (0 on HTTP/1.1).
    public var streamID: Int32
    /// Monotonic nanoseconds when the request arrived, for the recorded duration.
    public var receivedAtNanos: UInt64
    /// The client certificate the TLS peer presented, if any (certificate auth).
    public var certificateDER: [UInt8]?
    /// The state `Pipeline.connectionOpened` returned for this connection, when the transport kept it; nil makes
    /// the pipeline look the connection up by `id` (and start tracking it on its first request).
    public var handle: PipelineConnectionHandle?

    /// Describes a request's connection.
    public init(id: UInt64, remote: String, streamID: Int32, receivedAtNanos: UInt64 = Timestamp.monotonicNanos(),
                certificateDER: [UInt8]? = nil, handle: PipelineConnectionHandle? = nil) {
        self.id = id
        self.remote = remote
        self.streamID = streamID
        self.receivedAtNanos = receivedAtNanos
        self.certificateDER = certificateDER
        self.handle = handle
    }
}

/// What the transport must do with a stream once the pipeline has decided.
public enum PipelineDisposition: Sendable, Equatable {
    /// Send the response.
    case respond
    /// Send nothing, ever (a `stall` fault).
    case stall
    /// Reset the stream with this HTTP/2 error code.
    case reset(errorCode: UInt32)
    /// Leave the stream unanswered and send GOAWAY with this code and `{"reason":…}` debug data, then close.
    case goAway(errorCode: UInt32, debugData: [UInt8])
    /// Close the TCP connection without answering.
    case drop
}

/// The pipeline's answer to one request.
public struct PipelineResponse: Sendable {
    /// HTTP status.
    public var status: Int
    /// Response headers (`apns-id`, `apns-unique-id`, `content-type`…).
    public var headers: [HeaderField]
    /// Body: empty for success, `{"reason":…}` for errors.
    public var body: [UInt8]
    /// What the transport does with it.
    public var disposition: PipelineDisposition
    /// Wait this long before acting (a `delay` fault); nil = at once.
    public var delay: Duration?
    /// Announce this MAX_CONCURRENT_STREAMS on the connection (1 after a rejection before any success,
    /// the full limit again after the first success).
    public var streamLimit: UInt32?
    /// The answer will come later, from the relay's task (`--relay`) or a shared fault's claim: this placeholder is
    /// not sent.
    var deferred = false

    /// What `process` returns when the answer comes later.
    static var placeholder: PipelineResponse {
        var response = PipelineResponse(status: 0, headers: [], body: [], disposition: .respond, delay: nil, streamLimit: nil)
        response.deferred = true
        return response
    }
}

extension PipelineResponse {
    /// This response as `500 InternalServerError`, for a request whose record was lost before it was answered
    /// (`--record-sync` with a failing disk): no success is claimed without its record.
    func unrecorded() -> PipelineResponse {
        guard status < 300 else { return self }
        var response = self
        response.status = APNsReason.internalServerError.status
        response.headers = headers.filter { $0.name == "apns-id" || $0.name == "apns-request-id" }
        response.headers.append(HeaderField(name: "content-type", value: "application/json"))
        response.body = Pipeline.reasonBody(APNsReason.internalServerError.rawValue, timestamp: nil)
        return response
    }
}
