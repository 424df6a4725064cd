/// Per-stream state of a server connection: the request being assembled and the response body being sent.
///
/// Only touched on the connection's loop thread, and never through overlapping accesses, so the
/// dynamic exclusivity checks Swift would do on every property access are turned off (they showed up
/// at several percent of the per-request cost).
final class ServerStream {
    /// The HTTP/2 stream id (kept apart from `request`, which is handed over once complete).
    let streamID: Int32
    /// The request being assembled; once delivered to the handler it is moved out (`takeRequest`), and an empty
    /// request with the same ids is left behind.
    @exclusivity(unchecked) var request: HTTP2Request
    /// Header list size so far (RFC 9113 §6.5.2 accounting: name + value + 32 per field).
    @exclusivity(unchecked) var headerListSize = 0
    @exclusivity(unchecked) var headerListTooLarge = false
    @exclusivity(unchecked) var delivered = false
    @exclusivity(unchecked) var responded = false
    @exclusivity(unchecked) var responseBody: [UInt8] = []
    @exclusivity(unchecked) var responseOffset = 0
    /// Where the connection's list of open streams holds this one.
    @exclusivity(unchecked) var slot = 0

    /// A stream whose request is built here, in place: built outside and passed in, the request (a dozen
    /// reference-counted fields) was copied and destroyed once more per stream.
    init(streamID: Int32, connectionID: UInt64, remoteAddress: String, peerCertificateDER: [UInt8]?, alpn: String?,
         connectionContext: (any AnyObject & Sendable)?) {
        self.streamID = streamID
        request = HTTP2Request(
            method: "", path: "", connectionID: connectionID, streamID: streamID, remoteAddress: remoteAddress,
            peerCertificateDER: peerCertificateDER, alpn: alpn)
        request.connectionContext = connectionContext
    }

    /// The complete request, moved out for the handler (no copy of its fields, no second release of them): the
    /// stream keeps only `streamID`, which is all it reads once the request is delivered. The slot is refilled
    /// with a constant empty request (copying it retains nothing that needs freeing) rather than a newly built one.
    func takeRequest() -> HTTP2Request {
        withUnsafeMutablePointer(to: &request) { slot in
            let taken = slot.move()
            slot.initialize(to: Self.delivered)
            return taken
        }
    }

    /// What a stream holds once its request is delivered.
    private static let delivered = HTTP2Request(method: "", path: "")
}
