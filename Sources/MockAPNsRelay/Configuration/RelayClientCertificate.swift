/// The relay's own TLS client certificate, for certificate-authenticated pushes it forwards
/// (``RelayCredentials/forward(clientCertificate:)``): an APNs certificate the upstream trusts for their topics.
public struct RelayClientCertificate: Sendable, Hashable {
    /// The certificate chain, PEM (`-----BEGIN CERTIFICATE-----`).
    public var certificatePEM: String
    /// Its private key, PEM.
    public var privateKeyPEM: String

    /// A certificate and its key, both PEM text.
    public init(certificatePEM: String, privateKeyPEM: String) {
        self.certificatePEM = certificatePEM
        self.privateKeyPEM = privateKeyPEM
    }
}
