import APNsModel
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
    /// the team when the count flagged it as churn: its records then carry the finding.
    var churnCounted = false
    var churnTeam: String?
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
