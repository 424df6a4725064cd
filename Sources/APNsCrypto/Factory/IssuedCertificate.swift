/// A certificate made by `TestCredentialFactory`, with its private key.
public struct IssuedCertificate: Sendable {
    /// The certificate as PEM (`-----BEGIN CERTIFICATE-----`).
    public let certificatePEM: String
    /// The certificate's private key (EC P-256).
    public let privateKey: P256PrivateKey
    /// The certificate, kept to sign others (when it is a CA) and to check names in tests.
    let handle: X509Handle

    /// The private key as PKCS#8 PEM (`-----BEGIN PRIVATE KEY-----`).
    public var privateKeyPEM: String { privateKey.pemRepresentation }

    /// The certificate read back as an APNs client certificate (UID, topics, environments, validity).
    public func parsed() throws(CryptoError) -> APNsClientCertificate {
        try APNsClientCertificate(handle: handle)
    }
}
