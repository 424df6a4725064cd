/// Who a relay is to its upstream (``RelayConfiguration/credentials``).
///
/// A token-authenticated push can go up as its sender (the same `authorization` header) or re-signed by the relay. A
/// certificate-authenticated push cannot go up as its sender, whose proof is the TLS handshake with the relay: it
/// needs a credential of the relay's own, a key to re-sign with or a client certificate.
public enum RelayCredentials: Sendable, Hashable {
    /// Every push, token- or certificate-authenticated, re-signed with this `.p8` key (key `keyID` of team `teamID`),
    /// all through one client: one token per 50 minutes, not per push. The upstream sees the relay, not its senders.
    case resign(privateKeyPEM: String, keyID: String, teamID: String)
    /// Each token-authenticated push forwarded with its sender's own `authorization`, unchanged, on a connection per
    /// token, so the upstream checks the sender's token. Certificate-authenticated pushes go through
    /// `clientCertificate`, or without one are answered `403 MissingProviderToken` with the reason recorded.
    case forward(clientCertificate: RelayClientCertificate? = nil)
}
