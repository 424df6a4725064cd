/// The rules for a client-certificate connection that do not depend on the topic: trust, expiry, environment.
public enum CertificateRules {
    /// The reason the certificate is refused for `environment`, or `nil` when it may push there.
    /// An untrusted or expired certificate → `403 BadCertificate` (checked first: an untrusted certificate's
    /// environment claims mean nothing); one for the other environment → `403 BadCertificateEnvironment`.
    public static func check(_ facts: CertificateFacts, environment: APNsEnvironment) -> APNsReason? {
        guard facts.trusted, !facts.expired else { return .badCertificate }
        guard facts.allows(environment) else { return .badCertificateEnvironment }
        return nil
    }
}
