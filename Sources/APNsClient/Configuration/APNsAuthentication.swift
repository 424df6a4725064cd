/// How the client proves who it is to APNs.
public enum APNsAuthentication: Sendable, Hashable {
    /// Provider tokens: ES256 JWTs signed with the `.p8` key `keyID` of team `teamID`, sent as
    /// `authorization: bearer …`, minted once and reused for 50 minutes.
    case token(privateKeyPEM: String, keyID: String, teamID: String)
    /// A TLS client certificate (PEM) and its private key (PEM); no `authorization` header is sent.
    case certificate(pem: String, privateKeyPEM: String)
}
