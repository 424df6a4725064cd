import COpenSSL

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

extension IssuedCertificate {
    /// A certificate and its private key read back from PEM (the first certificate of `certificatePEM`), so a CA
    /// kept on disk (the bundled test CA, or a `serve --ca-dir` one) can issue certificates again. Throws when the
    /// key is not the certificate's own, which would issue certificates nobody could verify.
    public init(certificatePEM: String, privateKeyPEM: String) throws(CryptoError) {
        guard let handle = try X509Handle.decodeAll(pem: certificatePEM).first else { throw .noCertificates }
        let key = try P256PrivateKey(pemRepresentation: privateKeyPEM)
        guard X509_check_private_key(handle.pointer, key.key.pointer) == 1 else {
            OpenSSLErrorQueue.clear()
            throw .invalidArgument("the private key does not belong to the certificate")
        }
        guard let pem = handle.pemRepresentation else {
            throw .operationFailed(step: "write the certificate as PEM", openSSL: OpenSSLErrorQueue.drain())
        }
        self.init(certificatePEM: pem, privateKey: key, handle: handle)
    }
}
