/// What the server knows about a connection once it is ready for HTTP/2 (after the TLS handshake).
public struct HTTP2ConnectionInfo: Sendable {
    /// Connection identifier, from `HTTP2ServerConfiguration.connectionIDs` or unique per process; matches
    /// `HTTP2Request.connectionID`.
    public var id: UInt64
    /// The peer as "127.0.0.1:54321" or "[::1]:54321".
    public var remoteAddress: String
    /// The TLS client certificate (DER), if one was sent. Not verified.
    public var peerCertificateDER: [UInt8]?
    /// "h2" when negotiated with ALPN, nil otherwise.
    public var alpn: String?
    /// Whether the connection uses TLS (false for h2c prior knowledge).
    public var isTLS: Bool
    /// Which of the server's ports it came in on: 0 for `HTTP2ServerConfiguration.port`, then 1, 2… for
    /// `extraPorts` in order.
    public var listener: Int

    /// Creates connection info (the server builds these; public for handler tests).
    public init(id: UInt64, remoteAddress: String, peerCertificateDER: [UInt8]?, alpn: String?, isTLS: Bool, listener: Int = 0) {
        self.id = id
        self.remoteAddress = remoteAddress
        self.peerCertificateDER = peerCertificateDER
        self.alpn = alpn
        self.isTLS = isTLS
        self.listener = listener
    }
}
