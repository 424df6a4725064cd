/// Per-stream state of a server connection: the request being assembled and the response body being sent.
final class ServerStream {
    var request: HTTP2Request
    /// Header list size so far (RFC 9113 §6.5.2 accounting: name + value + 32 per field).
    var headerListSize = 0
    var headerListTooLarge = false
    var delivered = false
    var responded = false
    var responseBody: [UInt8] = []
    var responseOffset = 0

    init(request: HTTP2Request) {
        self.request = request
    }
}
