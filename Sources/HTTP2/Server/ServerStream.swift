/// Per-stream state of a server connection: the request being assembled and the response body being sent.
///
/// Only touched on the connection's loop thread, and never through overlapping accesses, so the
/// dynamic exclusivity checks Swift would do on every property access are turned off (they showed up
/// at several percent of the per-request cost).
final class ServerStream {
    @exclusivity(unchecked) var request: HTTP2Request
    /// Header list size so far (RFC 9113 §6.5.2 accounting: name + value + 32 per field).
    @exclusivity(unchecked) var headerListSize = 0
    @exclusivity(unchecked) var headerListTooLarge = false
    @exclusivity(unchecked) var delivered = false
    @exclusivity(unchecked) var responded = false
    @exclusivity(unchecked) var responseBody: [UInt8] = []
    @exclusivity(unchecked) var responseOffset = 0

    init(request: HTTP2Request) {
        self.request = request
    }
}
