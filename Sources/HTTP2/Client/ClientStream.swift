/// One request in a client connection: waiting for a stream slot, then in flight.
final class ClientStream {
    typealias Completion = @Sendable (Result<HTTP2ClientResponse, HTTP2ClientError>) -> Void

    let token: UInt64
    let request: HTTP2ClientRequest
    let completion: Completion
    var streamID: Int32 = -1
    var status = 0
    var headers: [HTTPHeaderField] = []
    var body: [UInt8] = []
    var requestOffset = 0
    var attempts = 0
    /// Monotonic nanoseconds after which the request fails with `.timeout`; 0: no timeout. Checked by the
    /// connection's timeout sweep, not by a timer per request.
    var deadline: UInt64 = 0
    var finished = false
    /// Set when the stream must fail with this error once nghttp2 closes it.
    var pendingError: HTTP2ClientError?

    init(token: UInt64, request: HTTP2ClientRequest, completion: @escaping Completion) {
        self.token = token
        self.request = request
        self.completion = completion
    }

    /// Completes once; later calls are ignored.
    func finish(_ result: Result<HTTP2ClientResponse, HTTP2ClientError>) {
        guard !finished else { return }
        finished = true
        completion(result)
    }
}
