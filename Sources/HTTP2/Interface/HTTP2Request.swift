/// A complete HTTP/2 request as the server received it: what a handler gets for every stream.
public struct HTTP2Request: Sendable {
    /// `:method` (e.g. "POST").
    public var method: String
    /// `:path` (e.g. "/3/device/abcd").
    public var path: String
    /// `:scheme`, if sent.
    public var scheme: String?
    /// `:authority`, if sent.
    public var authority: String?
    /// Regular header fields in wire order, duplicates kept, pseudo-headers excluded.
    public var headers: [HTTPHeaderField]
    /// The request body, at most `maxBodyBytes` long.
    public var body: [UInt8]
    /// True when the body exceeded the server's cap; `body` then holds the first `maxBodyBytes` bytes.
    public var bodyOverflowed: Bool
    /// The connection this stream arrived on (unique per server process).
    public var connectionID: UInt64
    /// The HTTP/2 stream identifier.
    public var streamID: Int32
    /// The peer as "127.0.0.1:54321" or "[::1]:54321".
    public var remoteAddress: String
    /// The TLS client certificate (DER), if the peer sent one. Not verified: the handler decides trust.
    public var peerCertificateDER: [UInt8]?
    /// The negotiated ALPN protocol: "h2", or nil when the client offered none (or h2c).
    public var alpn: String?
    /// Monotonic nanoseconds when the request's last frame was read, for measuring durations.
    public var receivedAt: UInt64
    /// What the handler's `makeConnectionContext(for:)` returned for this request's connection.
    public var connectionContext: (any AnyObject & Sendable)?

    /// Creates a request (the server builds these; public for handler tests).
    public init(
        method: String, path: String, scheme: String? = nil, authority: String? = nil,
        headers: [HTTPHeaderField] = [], body: [UInt8] = [], bodyOverflowed: Bool = false,
        connectionID: UInt64 = 0, streamID: Int32 = 1, remoteAddress: String = "",
        peerCertificateDER: [UInt8]? = nil, alpn: String? = nil, receivedAt: UInt64 = 0
    ) {
        self.method = method
        self.path = path
        self.scheme = scheme
        self.authority = authority
        self.headers = headers
        self.body = body
        self.bodyOverflowed = bodyOverflowed
        self.connectionID = connectionID
        self.streamID = streamID
        self.remoteAddress = remoteAddress
        self.peerCertificateDER = peerCertificateDER
        self.alpn = alpn
        self.receivedAt = receivedAt
    }

    /// The first value of header `name` (lowercase), if present.
    public func header(_ name: String) -> String? {
        headers.first { $0.name == name }?.value
    }
}
