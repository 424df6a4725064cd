import APNsCrypto
import APNsModel

/// Reads an APNs client certificate presented over mTLS into the facts the model decides on:
/// trusted by the test CA or not, expired or not, topics and environments.
public struct CertificateAuthenticator: Sendable {
    private let trustStore: CertificateTrustStore?

    /// Trusts client certificates that chain to `trustStore` (nil: trusts none, so every certificate is `BadCertificate`).
    public init(trustStore: CertificateTrustStore?) {
        self.trustStore = trustStore
    }

    /// The facts for a DER certificate at time `now` (epoch seconds).
    public func facts(certificateDER der: [UInt8], now: Int64) -> CertificateFacts {
        guard let certificate = try? APNsClientCertificate(derRepresentation: der) else {
            return CertificateFacts(trusted: false, expired: false, subjectUID: nil, topics: [],
                                    allowsDevelopment: false, allowsProduction: false)
        }
        let trusted = trustStore?.isTrusted(certificate, at: now) ?? false
        return CertificateFacts(
            trusted: trusted,
            expired: now > certificate.notAfter || now < certificate.notBefore,
            subjectUID: certificate.subjectUID,
            topics: certificate.topics.map { CertificateTopic(name: $0.name, kind: $0.kind) },
            allowsDevelopment: certificate.allowsDevelopment,
            allowsProduction: certificate.allowsProduction)
    }
}
