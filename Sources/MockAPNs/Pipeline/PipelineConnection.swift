import APNsModel
import DeviceSimulation
import Support
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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

/// One connection's state behind its own lock. A transport keeps it (`Pipeline.connectionOpened` returns it) and
/// hands it back with each request, so deciding a request never waits on a table that every loop shares; the
/// requests of one connection are decided one at a time, each seeing the state the previous one left.
package final class PipelineConnectionHandle: Sendable {
    let state: Locked<PipelineConnectionState>
    /// What the port the connection came in on stands for (``ListenerRole``).
    package let role: ListenerRole

    init(_ state: PipelineConnectionState, role: ListenerRole = .mock) {
        self.state = Locked(state)
        self.role = role
    }
}

/// What the pipeline remembers about one connection.
///
/// Stream limit (apns-rules §7): Apple documents one stream until a valid token succeeds; APNs has been seen
/// to open connections at 1000 and to drop to 1 after a rejected push, back up after a success. We do exactly
/// that, the lenient reading: a token connection starts at the full limit (so a sender's first flight, sent
/// before it could read any SETTINGS, is never refused), is held to one stream as soon as a request on it is
/// rejected before any success, and gets the full limit back with its first success. Certificate connections
/// are never limited. The lower limit takes effect once the streams open when it was decided are answered
/// (the transport holds it back until then, RFC 9113 §5.1.2): every stream of a flight already sent gets its
/// own verdict, and only streams opened later, beyond one, are refused (behaviour chosen; APNs's is unobserved).
struct PipelineConnectionState {
    var tokenState = TokenConnectionState()
    var certificate: CertificateFacts?
    var succeeded = false
    var limitedToOne = false
    /// Whether the connection has been counted by `ConnectionChurnMonitor` (at its first trusted token), and
    /// the finding its records carry when the count flagged it as churn (made once, each record shares it).
    var churnCounted = false
    var churnFinding: LintFinding?
    /// The team of the token the connection was counted under (flagged or not), told to the monitor when an
    /// HTTP/1.1 connection closes.
    var churnCountedTeam: String?
    /// The connection's protocol: HTTP/1.1 connections count toward churn only when they replace a closed one.
    var transport = PipelineTransport.http2
    /// The last `authorization` value on this connection, the credential it gave and how records show it. Senders
    /// repeat one token for many requests, and the credential depends on the value alone (keys are fixed at start),
    /// so a repeat (same bytes) is recognised by one comparison instead of a lookup in the shared token cache.
    var lastCredential: CredentialMemo?
    /// How records show the certificate credential of a certificate connection.
    var certificateSummary: RecordedRequest.Authentication?

    /// The credential for `authorization` and how records show it, from the last ones when the value repeats.
    mutating func credential(authorization: String?, tokens: ProviderTokenAuthenticator) -> CredentialMemo {
        if let lastCredential, Self.sameBytes(authorization, lastCredential.authorization) { return lastCredential }
        let credential = tokens.credential(authorization: authorization)
        let memo = CredentialMemo(authorization: authorization, credential: credential,
                                  authentication: Pipeline.authentication(credential))
        lastCredential = memo
        return memo
    }

    /// How records show `credential`, the certificate credential of this connection (`certificate` is set once,
    /// when the connection opens, so the summary is made on its first request).
    mutating func certificateAuthentication(_ credential: ProviderCredential) -> RecordedRequest.Authentication {
        if let certificateSummary { return certificateSummary }
        let authentication = Pipeline.authentication(credential)
        certificateSummary = authentication
        return authentication
    }

    /// Whether two optional strings hold the same UTF-8 bytes (not merely `==`, which is canonical equivalence:
    /// a token that differs in its bytes is another token).
    private static func sameBytes(_ a: String?, _ b: String?) -> Bool {
        switch (a, b) {
        case (nil, nil): return true
        case (var a?, var b?):
            return a.withUTF8 { x in
                b.withUTF8 { y in x.count == y.count && (x.isEmpty || memcmp(x.baseAddress!, y.baseAddress!, x.count) == 0) }
            }
        default: return false
        }
    }
}

/// A connection's last `authorization` value, the credential it gave and how records show that credential
/// (`PipelineConnectionState.credential`). One object, so that a request repeating the value costs a retain of it
/// rather than copies of the credential's and the summary's many reference-counted fields.
final class CredentialMemo {
    let authorization: String?
    let credential: ProviderCredential
    let authentication: RecordedRequest.Authentication

    init(authorization: String?, credential: ProviderCredential, authentication: RecordedRequest.Authentication) {
        self.authorization = authorization
        self.credential = credential
        self.authentication = authentication
    }
}

/// Which protocol a connection speaks, for the rules that read the same behaviour differently on each.
///
/// Connection churn (`ConnectionChurnMonitor`): an HTTP/2 sender needs one connection for hundreds of pushes in
/// flight, so many new connections a second mean a connection per push. An HTTP/1.1 connection carries one
/// request at a time, so a sender keeps a pool of keep-alive connections, one per request in flight (APNSwift
/// opened 47 for 2 000 pushes with 100 in flight): opening them is normal. On HTTP/1.1 only a connection that
/// replaces one the same team closed within the last second counts.
package enum PipelineTransport: Sendable {
    /// HTTP/2 (TLS or h2c): every new token connection counts toward churn.
    case http2
    /// HTTP/1.1 keep-alive: only connections replacing a closed one count toward churn.
    case http1
}
