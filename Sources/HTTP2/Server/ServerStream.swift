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

    // Repeats of the connection's previous request (`RepeatedFieldCache`): while every field so far repeats it,
    // nothing is copied; the first difference copies the repeated part and appends from there.
    /// The previous request's headers and body as they were when this stream began.
    @exclusivity(unchecked) var previousHeaders: [HTTPHeaderField]
    @exclusivity(unchecked) var previousBody: [UInt8]
    /// Regular header fields received so far.
    @exclusivity(unchecked) var headerCount = 0
    /// Whether `request.headers` holds the list (false: it is `previousHeaders[0..<headerCount]`).
    @exclusivity(unchecked) var headersCopied = false
    /// Body bytes received so far that repeat `previousBody` (while `bodyCopied` is false).
    @exclusivity(unchecked) var repeatedBodyBytes = 0
    /// Whether `request.body` holds the body (false: it is `previousBody[0..<repeatedBodyBytes]`).
    @exclusivity(unchecked) var bodyCopied = false

    init(request: HTTP2Request, previousHeaders: [HTTPHeaderField], previousBody: [UInt8]) {
        self.request = request
        self.previousHeaders = previousHeaders
        self.previousBody = previousBody
    }
}
