/// How the client proves who it is to APNs.
public enum APNsAuthentication: Sendable, Hashable {
    /// Provider tokens: ES256 JWTs signed with the `.p8` key `keyID` of team `teamID`, sent as
    /// `authorization: bearer …`, minted once and reused for 50 minutes.
    case token(privateKeyPEM: String, keyID: String, teamID: String)
    /// A TLS client certificate (PEM) and its private key (PEM); no `authorization` header is sent.
    case certificate(pem: String, privateKeyPEM: String)
    /// No credential of the client's own: each notification carries its `authorization` header among its headers
    /// (an `APNsRawNotification`), sent as given. What a relay forwarding its senders' own tokens uses.
    case perNotification
}
