/// What kind of certificate `TestCredentialFactory` makes, and the OpenSSL extension config for it.
enum CertificateProfile {
    /// A self-signed certificate authority.
    case authority
    /// A TLS server certificate for these DNS names and IP addresses.
    case server(hosts: [String])
    /// An APNs client certificate; no topics means no topics extension (the subject UID is the topic).
    case client(topics: [APNsClientCertificate.Topic], development: Bool, production: Bool)

    /// The name of the extension section in `configText`.
    static let section = "extensions"

    /// An OpenSSL config (`x509v3_config(5)` syntax) whose `[extensions]` section holds this profile's
    /// extensions. Values are checked first, so nothing can inject config syntax.
    func configText() throws(CryptoError) -> String {
        var lines = ["[ \(Self.section) ]"]
        var sections: [String] = []
        switch self {
        case .authority:
            lines += ["basicConstraints = critical, CA:TRUE",
                      "keyUsage = critical, keyCertSign, cRLSign",
                      "subjectKeyIdentifier = hash"]
        case let .server(hosts):
            guard !hosts.isEmpty else { throw .invalidArgument("a server certificate needs at least one host name or IP address") }
            let names = try hosts.map { host throws(CryptoError) -> String in
                try Self.checked(host, what: "host")
                return (Self.isIPAddress(host) ? "IP:" : "DNS:") + host
            }
            lines += ["basicConstraints = critical, CA:FALSE",
                      "keyUsage = critical, digitalSignature, keyEncipherment",
                      "extendedKeyUsage = serverAuth",
                      "subjectAltName = " + names.joined(separator: ", "),
                      "subjectKeyIdentifier = hash",
                      "authorityKeyIdentifier = keyid"]
        case let .client(topics, development, production):
            lines += ["basicConstraints = critical, CA:FALSE",
                      "keyUsage = critical, digitalSignature, keyEncipherment",
                      "extendedKeyUsage = clientAuth",
                      "subjectKeyIdentifier = hash",
                      "authorityKeyIdentifier = keyid"]
            if development { lines.append("\(APNsCertificateOID.development.rawValue) = ASN1:NULL") }
            if production { lines.append("\(APNsCertificateOID.production.rawValue) = ASN1:NULL") }
            if !topics.isEmpty {
                lines.append("\(APNsCertificateOID.topics.rawValue) = ASN1:SEQUENCE:apns_topics")
                sections.append("[ apns_topics ]")
                for (index, topic) in topics.enumerated() {
                    try Self.checked(topic.name, what: "topic")
                    try Self.checked(topic.kind, what: "topic kind")
                    sections.append("topic\(index) = UTF8:\(topic.name)")
                    sections.append("kind\(index) = SEQUENCE:apns_kind\(index)")
                }
                for (index, topic) in topics.enumerated() {
                    sections += ["[ apns_kind\(index) ]", "kind = UTF8:\(topic.kind)"]
                }
            }
        }
        return (lines + sections).joined(separator: "\n") + "\n"
    }

    /// Throws unless `value` is non-empty and only letters, digits, `.`, `-`, `_`, `:` or `*`.
    private static func checked(_ value: String, what: String) throws(CryptoError) {
        let allowed = value.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "-"),
                 UInt8(ascii: "_"), UInt8(ascii: ":"), UInt8(ascii: "*"):
                return true
            default:
                return false
            }
        }
        guard !value.isEmpty, allowed else {
            throw .invalidArgument("the \(what) \"\(value)\" may only use letters, digits, '.', '-', '_', ':' and '*'")
        }
    }

    /// True for a dotted IPv4 or a colon IPv6 address (what goes in an `IP:` subject alternative name).
    private static func isIPAddress(_ host: String) -> Bool {
        if host.contains(":") { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { UInt8($0) != nil }
    }
}
