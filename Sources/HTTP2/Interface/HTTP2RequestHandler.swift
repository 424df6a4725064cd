/// The application side of the server: gets every complete request and answers through the responder.
public protocol HTTP2RequestHandler: Sendable {
    /// Called on a loop thread for every complete request. Must not block; may answer now
    /// (fastest: same thread, no hop) or later from any thread.
    func handle(_ request: HTTP2Request, responder: HTTP2Responder)
    /// Called on the connection's loop thread once the connection is ready (TLS handshake done,
    /// SETTINGS queued). Default: nothing.
    func connectionOpened(_ info: HTTP2ConnectionInfo)
    /// Called on the connection's loop thread when the connection is gone. Default: nothing.
    func connectionClosed(_ info: HTTP2ConnectionInfo)
    /// Called once per connection, right after `connectionOpened`: the handler's own state for that connection,
    /// handed back as `HTTP2Request.connectionContext` with each of its requests, so a handler need not look its
    /// state up in a table shared by every loop. Default: none.
    func makeConnectionContext(for info: HTTP2ConnectionInfo) -> (any AnyObject & Sendable)?
    /// Called on the connection's loop thread for a request the server refused instead of handing it over: its
    /// header list exceeded SETTINGS_MAX_HEADER_LIST_SIZE (an oversized or HPACK-bomb header block), answered
    /// `status` 431 right after this call; or nghttp2 ended the connection over the peer's input while the request
    /// was being read (e.g. COMPRESSION_ERROR for a header field past its decoder's limit), `status` 0: no answer.
    /// `request` holds what was read of it: pseudo-headers and the fields read before the refusal, and the body
    /// (capped as usual). So an application can keep a trace of requests it never saw. Must not block.
    /// Default: nothing.
    func refused(_ request: HTTP2Request, status: Int)
}

extension HTTP2RequestHandler {
    /// Default: nothing.
    public func connectionOpened(_ info: HTTP2ConnectionInfo) {}
    /// Default: nothing.
    public func connectionClosed(_ info: HTTP2ConnectionInfo) {}
    /// Default: no context.
    public func makeConnectionContext(for info: HTTP2ConnectionInfo) -> (any AnyObject & Sendable)? { nil }
    /// Default: nothing.
    public func refused(_ request: HTTP2Request, status: Int) {}
}
