import JSON

/// Creates test-only credentials in Swift: a CA, a TLS server certificate, APNs client certificates
/// with topic and environment extensions, and `.p8` signing keys. `mockapns certs --out DIR` writes
/// the same set as `certs/generate.sh`. Never use what it makes in production.
public enum TestCredentialFactory {
    /// Seconds in a day, for validity periods.
    public static let secondsPerDay: Int64 = 86_400

    /// One file of a credential set: its name (no directory) and text.
    public struct File: Sendable, Equatable {
        /// File name, e.g. `ca.pem` or `AuthKey_TESTKEY001.p8`.
        public let name: String
        /// File contents (PEM or JSON).
        public let contents: String
    }

    /// A self-signed CA that can issue the other certificates.
    public static func makeCertificateAuthority(
        commonName: String = "MockAPNs Test CA",
        notBefore: Int64,
        days: Int64 = 7305
    ) throws(CryptoError) -> IssuedCertificate {
        try issue(subject: [("O", "MockAPNs Test"), ("OU", "TEST ONLY - NOT FOR PRODUCTION"), ("CN", commonName)],
                  profile: .authority, issuer: nil, notBefore: notBefore, days: days)
    }

    /// A TLS server certificate whose subject alternative names are `hosts` (IP literals become
    /// `IP:` entries, everything else `DNS:`), signed by `issuer`.
    public static func makeServerCertificate(
        hosts: [String] = ["localhost", "127.0.0.1", "::1"],
        issuer: IssuedCertificate,
        notBefore: Int64,
        days: Int64 = 3650
    ) throws(CryptoError) -> IssuedCertificate {
        try issue(subject: [("O", "MockAPNs Test"), ("CN", hosts.first ?? "localhost")],
                  profile: .server(hosts: hosts), issuer: issuer, notBefore: notBefore, days: days)
    }

    /// An APNs client certificate for `bundleID` (subject UID), listing `topics` in extension
    /// `1.2.840.113635.100.6.3.6` (omitted when empty) and the chosen environment extensions.
    public static func makeClientCertificate(
        bundleID: String,
        commonName: String? = nil,
        teamID: String = "TESTTEAM01",
        topics: [APNsClientCertificate.Topic],
        development: Bool = true,
        production: Bool = true,
        issuer: IssuedCertificate,
        notBefore: Int64,
        days: Int64 = 3650
    ) throws(CryptoError) -> IssuedCertificate {
        let subject: CertificateBuilder.Name = [
            ("UID", bundleID), ("CN", commonName ?? "Apple Push Services: \(bundleID)"),
            ("OU", teamID), ("O", "Example Inc."), ("C", "US"),
        ]
        return try issue(subject: subject, profile: .client(topics: topics, development: development, production: production),
                         issuer: issuer, notBefore: notBefore, days: days)
    }

    /// The standard test set, same names and roles as the committed `certs/` folder (see its
    /// README): CA, server, six client certificates, the untrusted CA, five `.p8` keys and `keys.json`.
    public static func makeStandardFiles(now: Int64) throws(CryptoError) -> [File] {
        let appTopics: [APNsClientCertificate.Topic] = [
            .init(name: "com.example.app", kind: "app"),
            .init(name: "com.example.app.voip", kind: "voip"),
            .init(name: "com.example.app.complication", kind: "complication"),
        ]
        // A topic for every push type that has one (the certificate/push-type conformance grid).
        let allTopics: [APNsClientCertificate.Topic] = [
            ("", "app"), (".voip", "voip"), (".complication", "complication"), (".pushkit.fileprovider", "fileprovider"),
            (".push-type.widgets", "widgets"), (".push-type.controls", "controls"),
            (".push-type.liveactivity", "liveactivity"), (".location-query", "location"), (".voip-ptt", "pushtotalk"),
        ].map { .init(name: "com.example.all" + $0.0, kind: $0.1) }
        let ca = try makeCertificateAuthority(notBefore: now)
        let untrustedCA = try makeCertificateAuthority(commonName: "MockAPNs Untrusted Test CA", notBefore: now)
        let certificates: [(String, IssuedCertificate)] = [
            ("ca", ca),
            ("server", try makeServerCertificate(issuer: ca, notBefore: now)),
            ("client-app", try makeClientCertificate(bundleID: "com.example.app", topics: appTopics, issuer: ca, notBefore: now)),
            ("client-dev-only", try makeClientCertificate(
                bundleID: "com.example.app", commonName: "Apple Development IOS Push Services: com.example.app",
                topics: appTopics, production: false, issuer: ca, notBefore: now)),
            ("client-single-topic", try makeClientCertificate(bundleID: "com.example.single", topics: [], issuer: ca, notBefore: now)),
            ("client-all-topics", try makeClientCertificate(bundleID: "com.example.all", topics: allTopics, issuer: ca, notBefore: now)),
            ("client-mdm", try makeClientCertificate(
                bundleID: "com.apple.mgmt.External.0c0ffee0-test", commonName: "APSP:0c0ffee0-test", topics: [],
                issuer: ca, notBefore: now)),
            ("client-untrusted", try makeClientCertificate(bundleID: "com.example.app", topics: appTopics, issuer: untrustedCA, notBefore: now)),
            ("untrusted-ca", untrustedCA),
        ]
        var files: [File] = []
        for (base, issued) in certificates {
            files.append(File(name: "\(base).pem", contents: issued.certificatePEM))
            files.append(File(name: "\(base)-key.pem", contents: issued.privateKeyPEM))
        }
        let keys: [(keyID: String, teamID: String, environment: String, topics: [String]?)] = [
            ("TESTKEY001", "TESTTEAM01", "both", nil),
            ("OTHERKEY01", "OTHERTEAM1", "both", nil),
            ("DEVKEY0001", "TESTTEAM01", "development", nil),
            ("PRODKEY001", "TESTTEAM01", "production", nil),
            ("TOPICKEY01", "TESTTEAM01", "development", ["com.example.app"]),   // a topic-specific key
        ]
        var rows: [String] = []
        for key in keys {
            let file = "AuthKey_\(key.keyID).p8"
            files.append(File(name: file, contents: P256PrivateKey.generate().pemRepresentation))
            rows.append("  {\"key_id\": \(JSONEscaping.quoted(key.keyID)), \"team_id\": \(JSONEscaping.quoted(key.teamID)), "
                + "\"file\": \(JSONEscaping.quoted(file)), \"environment\": \(JSONEscaping.quoted(key.environment))"
                + (key.topics.map { ", \"topics\": [" + $0.map(JSONEscaping.quoted).joined(separator: ", ") + "]" } ?? "") + "}")
        }
        files.append(File(name: "keys.json", contents: "[\n" + rows.joined(separator: ",\n") + "\n]\n"))
        return files
    }

    private static func issue(
        subject: CertificateBuilder.Name,
        profile: CertificateProfile,
        issuer: IssuedCertificate?,
        notBefore: Int64,
        days: Int64
    ) throws(CryptoError) -> IssuedCertificate {
        guard days > 0 else { throw .invalidArgument("the validity must be at least one day, not \(days)") }
        let key = P256PrivateKey.generate()
        let handle = try CertificateBuilder.build(
            subject: subject, subjectKey: key, profile: profile, issuer: issuer,
            notBefore: notBefore, notAfter: notBefore + days * secondsPerDay
        )
        guard let pem = handle.pemRepresentation else {
            throw .operationFailed(step: "write the certificate as PEM", openSSL: OpenSSLErrorQueue.drain())
        }
        return IssuedCertificate(certificatePEM: pem, privateKey: key, handle: handle)
    }
}
