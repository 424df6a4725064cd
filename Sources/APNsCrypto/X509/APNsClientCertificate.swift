import COpenSSL

/// An APNs provider (client) certificate and the fields APNs reads from it: subject UID and CN,
/// the topics it may push to, which environments it allows, and its validity period.
public struct APNsClientCertificate: Sendable {
    /// The certificate as DER, e.g. what a TLS handshake delivered.
    public let derRepresentation: [UInt8]
    /// Subject `UID`: the base topic (bundle ID), or the topic itself for single-topic certificates.
    public let subjectUID: String?
    /// Subject `CN`, e.g. `Apple Push Services: com.example.app`.
    public let commonName: String?
    /// Topics from extension `1.2.840.113635.100.6.3.6`, in order; empty if the extension is absent.
    public let topics: [Topic]
    /// Extension `1.2.840.113635.100.6.3.1` is present: development (sandbox) pushes allowed.
    public let allowsDevelopment: Bool
    /// Extension `1.2.840.113635.100.6.3.2` is present: production pushes allowed.
    public let allowsProduction: Bool
    /// Start of validity, epoch seconds.
    public let notBefore: Int64
    /// End of validity, epoch seconds.
    public let notAfter: Int64

    /// The parsed certificate, kept for chain checks by `CertificateTrustStore`.
    let handle: X509Handle

    /// One topic the certificate may push to and its kind (`app`, `voip`, `complication`, …).
    public struct Topic: Sendable, Equatable {
        /// The `apns-topic` value, e.g. `com.example.app.voip`.
        public let name: String
        /// Apple's kind string for the topic; empty if the certificate gives none.
        public let kind: String

        /// A topic with its kind.
        public init(name: String, kind: String) {
            self.name = name
            self.kind = kind
        }
    }

    /// Parses the first certificate in a PEM text (`-----BEGIN CERTIFICATE-----`).
    public init(pemRepresentation: String) throws(CryptoError) {
        let handle = MemoryBIO.reading(pemRepresentation) { bio in
            PEM_read_bio_X509(bio, nil, nil, nil).map(X509Handle.init(taking:))
        }
        guard let handle else {
            throw .invalidPEM(expected: "certificate", openSSL: OpenSSLErrorQueue.drain())
        }
        try self.init(handle: handle)
    }

    /// Parses one DER certificate.
    public init(derRepresentation: [UInt8]) throws(CryptoError) {
        try self.init(handle: X509Handle.decode(der: derRepresentation))
    }

    init(handle: X509Handle) throws(CryptoError) {
        let certificate = handle.pointer
        guard let der = handle.derRepresentation else {
            throw .malformedCertificate(reason: "it cannot be re-encoded as DER (\(OpenSSLErrorQueue.drain()))")
        }
        guard let start = X509_get0_notBefore(certificate).flatMap(ASN1Text.epochSeconds),
              let end = X509_get0_notAfter(certificate).flatMap(ASN1Text.epochSeconds) else {
            throw .malformedCertificate(reason: "its validity dates cannot be read")
        }
        let subject = X509_get_subject_name(certificate)
        var topics: [Topic] = []
        if let topicsExtension = APNsCertificateOID.topics.find(in: certificate) {
            guard let data = X509_EXTENSION_get_data(topicsExtension) else {
                throw .malformedCertificate(reason: "extension \(APNsCertificateOID.topics.rawValue) (topics) is empty")
            }
            topics = try APNsTopicsExtension.topics(in: data)
        }

        self.handle = handle
        self.derRepresentation = der
        self.subjectUID = subject.flatMap { ASN1Text.nameEntry($0, nid: NID_userId) }
        self.commonName = subject.flatMap { ASN1Text.nameEntry($0, nid: NID_commonName) }
        self.topics = topics
        self.allowsDevelopment = APNsCertificateOID.development.find(in: certificate) != nil
        self.allowsProduction = APNsCertificateOID.production.find(in: certificate) != nil
        self.notBefore = start
        self.notAfter = end
    }

    /// The certificate as PEM (`-----BEGIN CERTIFICATE-----`).
    public var pemRepresentation: String {
        guard let pem = handle.pemRepresentation else {
            fatalError("OpenSSL could not write a certificate as PEM: \(OpenSSLErrorQueue.drain())")
        }
        return pem
    }
}
