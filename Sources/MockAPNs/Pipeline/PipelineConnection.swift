import APNsModel

/// Where a request came from, as the pipeline needs to know it (transport-independent).
package struct PipelineConnection: Sendable {
    /// The connection's id; state such as token binding is kept per id.
    package var id: UInt64
    /// The peer's address, `host:port`.
    package var remote: String
    /// The HTTP/2 stream (0 on HTTP/1.1).
    package var streamID: Int32
    /// Monotonic nanoseconds when the request arrived, for the recorded duration.
    package var receivedAtNanos: UInt64
    /// The client certificate the TLS peer presented, if any (certificate auth).
    package var certificateDER: [UInt8]?
    /// The state `Pipeline.connectionOpened` returned for this connection, when the transport kept it; nil makes
    /// the pipeline look the connection up by `id` (and start tracking it on its first request).
    package var handle: PipelineConnectionHandle?
    /// Which APIs the port it came in on serves: all of them on the mock's own port, Apple's split under
    /// `--apple-hosts` (``ServedAPIs``).
    package var servedAPIs: ServedAPIs
    /// The environment the request's host implies under `--apple-hosts` (`api.push.apple.com` is production): it
    /// decides and is recorded in place of the configured one. Nil elsewhere.
    package var environment: APNsEnvironment?
    /// The FCM message the request delivers, when the FCM front door made it: recorded as the record's `fcm`.
    package var fcm: RecordedRequest.FCMLink?

    /// Describes a request's connection.
    package init(id: UInt64, remote: String, streamID: Int32, receivedAtNanos: UInt64 = Timestamp.monotonicNanos(),
                certificateDER: [UInt8]? = nil, handle: PipelineConnectionHandle? = nil, servedAPIs: ServedAPIs = .all,
                environment: APNsEnvironment? = nil, fcm: RecordedRequest.FCMLink? = nil) {
        self.fcm = fcm
        self.servedAPIs = servedAPIs
        self.environment = environment
        self.id = id
        self.remote = remote
        self.streamID = streamID
        self.receivedAtNanos = receivedAtNanos
        self.certificateDER = certificateDER
        self.handle = handle
    }
}
