/// Why a client operation failed, with what to do about it.
public enum HTTP2ClientError: Error, Sendable, Equatable, CustomStringConvertible {
    /// TCP connect (or name resolution) failed.
    case connectFailed(String)
    /// The TLS handshake failed (untrusted certificate, hostname mismatch, protocol version…).
    case tlsHandshakeFailed(String)
    /// The server sent GOAWAY. `retryable` is true when the server never processed the request
    /// (its stream was above the GOAWAY's last-stream-id, or it was never sent): retry it on a new connection.
    case goAway(retryable: Bool)
    /// The server reset the stream with RST_STREAM (`errorCode`, e.g. 7 REFUSED_STREAM, 8 CANCEL).
    case streamReset(errorCode: UInt32)
    /// The request did not complete within its timeout (the stream was cancelled).
    case timeout
    /// The connection closed before the response completed (whether the server processed it is unknown).
    case connectionClosed
    /// The calling task was cancelled.
    case cancelled
    /// nghttp2 rejected something (e.g. an invalid header).
    case protocolError(String)

    public var description: String {
        switch self {
        case let .connectFailed(reason): return "could not connect: \(reason)"
        case let .tlsHandshakeFailed(reason): return "TLS handshake failed: \(reason)"
        case let .goAway(retryable):
            return retryable
                ? "the server is closing the connection (GOAWAY) and did not process this request: retry on a new connection"
                : "the server closed the connection (GOAWAY) while this request was in flight"
        case let .streamReset(code): return "the server reset the stream (RST_STREAM error code \(code))"
        case .timeout: return "the request timed out"
        case .connectionClosed: return "the connection closed before the response completed"
        case .cancelled: return "the request was cancelled"
        case let .protocolError(reason): return "HTTP/2 protocol error: \(reason)"
        }
    }
}
