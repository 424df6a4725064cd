/// Where and how the plain HTTP/1.1 APNs endpoint listens, and the limits it holds requests to.
///
/// The limits are the HTTP/2 listener's (`HTTP2ServerConfiguration`), so a request gets the same answer on either:
/// a header list over ``maxHeaderListSize`` is refused with 431 and recorded, a body is read up to ``maxBodyBytes``
/// and the pipeline judges its size (413 `PayloadTooLarge` past the push type's limit).
public struct APNsHTTP1Configuration: Sendable {
    /// The bind address; loopback by default, since the endpoint has no TLS.
    public var host: String
    /// The port; 0 picks a free one (read it from `APNsHTTP1Server.port` after `start()`).
    public var port: Int
    /// Event-loop threads of the endpoint's own; nil = SwiftNIO's shared loops (`MultiThreadedEventLoopGroup.singleton`,
    /// one per core), which `mockapns serve`'s HTTP/2 listener and control plane run on too.
    public var eventLoopThreads: Int?
    /// The largest body kept; the rest is read and discarded (the pipeline still sees the body is too large).
    public var maxBodyBytes: Int
    /// The largest header list accepted, counted as HTTP/2 counts it (name + value + 32 per field, the request
    /// line's method and target included); larger ones are answered 431.
    public var maxHeaderListSize: Int

    /// A configuration with the HTTP/2 listener's limits.
    public init(host: String = "127.0.0.1", port: Int = 0, eventLoopThreads: Int? = 1, maxBodyBytes: Int = 64 * 1024,
                maxHeaderListSize: Int = 8000) {
        self.host = host
        self.port = port
        self.eventLoopThreads = eventLoopThreads
        self.maxBodyBytes = maxBodyBytes
        self.maxHeaderListSize = maxHeaderListSize
    }
}
