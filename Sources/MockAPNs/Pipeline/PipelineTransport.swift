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
