import HTTP2

/// How a transport failure of one attempt maps to the client's error, whether to retry, and whether the
/// connection must be replaced.
struct TransportFailure {
    /// The error to report if no retry helps.
    var error: APNsClientError
    /// Whether another attempt may succeed (apns-rules §3.4 and §7: GOAWAY / lost connections are retried).
    var retry: Bool
    /// Whether the connection is unusable and its pool slot should reconnect.
    var discardConnection: Bool

    init(_ failure: HTTP2ClientError) {
        switch failure {
        case .goAway:
            // retryable: never processed; not retryable: in flight when the server left. Same apns-id either way.
            self.init(error: .connection(failure.description), retry: true, discardConnection: true)
        case .connectionClosed:
            self.init(error: .connection(failure.description), retry: true, discardConnection: true)
        case .connectFailed, .tlsHandshakeFailed:
            // Opening connections is the pool's job (with its shared back-off), never retried per push.
            self.init(error: .connection(failure.description), retry: false, discardConnection: true)
        case let .streamReset(code):
            // REFUSED_STREAM (7): not processed, safe to retry.
            self.init(error: .connection(failure.description), retry: code == 7, discardConnection: false)
        case .timeout:
            self.init(error: .timeout, retry: false, discardConnection: false)
        case .cancelled:
            self.init(error: .cancelled, retry: false, discardConnection: false)
        case .protocolError:
            self.init(error: .connection(failure.description), retry: false, discardConnection: false)
        }
    }

    private init(error: APNsClientError, retry: Bool, discardConnection: Bool) {
        self.error = error
        self.retry = retry
        self.discardConnection = discardConnection
    }
}
