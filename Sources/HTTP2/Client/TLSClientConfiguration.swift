/// Client-side TLS: whom to trust, what to present, what to offer.
public struct TLSClientConfiguration: Sendable {
    /// CA certificates to trust (PEM); nil = the system's default trust store.
    public var trustRoots: PEMSource?
    /// Client certificate chain to present (mTLS), with `privateKey`.
    public var certificateChain: PEMSource?
    /// Private key of the client certificate.
    public var privateKey: PEMSource?
    /// Name for SNI and the hostname check; nil = the host passed to `connect`.
    public var serverName: String?
    /// Verify the server's certificate chain (and hostname, see `verifyHostname`).
    public var verifyCertificate: Bool
    /// Check that the certificate matches `serverName` (DNS name or IP address).
    public var verifyHostname: Bool
    /// ALPN protocols to offer; empty offers none (HTTP/2 with prior knowledge, like pushy or aioapns).
    public var applicationProtocols: [String]
    /// Lowest accepted protocol version.
    public var minimumVersion: TLSVersion

    /// Creates a client TLS configuration (default: system trust, verify everything, ALPN "h2").
    public init(
        trustRoots: PEMSource? = nil, certificateChain: PEMSource? = nil, privateKey: PEMSource? = nil,
        serverName: String? = nil, verifyCertificate: Bool = true, verifyHostname: Bool = true,
        applicationProtocols: [String] = ["h2"], minimumVersion: TLSVersion = .tls12
    ) {
        self.trustRoots = trustRoots
        self.certificateChain = certificateChain
        self.privateKey = privateKey
        self.serverName = serverName
        self.verifyCertificate = verifyCertificate
        self.verifyHostname = verifyHostname
        self.applicationProtocols = applicationProtocols
        self.minimumVersion = minimumVersion
    }
}
