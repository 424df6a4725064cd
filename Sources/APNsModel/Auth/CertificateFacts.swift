/// One topic listed in an APNs client certificate's topic extension (`1.2.840.113635.100.6.3.6`):
/// the topic string and its kind (`app`, `voip`, `complication`, …).
public struct CertificateTopic: Sendable, Hashable, Codable {
    /// The topic, e.g. `com.example.app.voip`.
    public var name: String
    /// The kind written beside it, e.g. `voip`.
    public var kind: String

    /// Makes a certificate topic.
    public init(name: String, kind: String) {
        self.name = name
        self.kind = kind
    }
}

/// What the TLS layer learned about the connection's client certificate.
public struct CertificateFacts: Sendable, Hashable {
    /// Whether the certificate chains to a trusted CA.
    public var trusted: Bool
    /// Whether it is outside its validity period.
    public var expired: Bool
    /// The subject's `UID`: the app's bundle ID (or the MDM topic).
    public var subjectUID: String?
    /// The topic list from extension `.3.6`; empty means the certificate covers just its UID.
    public var topics: [CertificateTopic]
    /// Whether it may push to the development environment (extension `.3.1`).
    public var allowsDevelopment: Bool
    /// Whether it may push to production (extension `.3.2`).
    public var allowsProduction: Bool

    /// Makes certificate facts.
    public init(trusted: Bool, expired: Bool = false, subjectUID: String?, topics: [CertificateTopic] = [],
                allowsDevelopment: Bool = true, allowsProduction: Bool = true) {
        self.trusted = trusted
        self.expired = expired
        self.subjectUID = subjectUID
        self.topics = topics
        self.allowsDevelopment = allowsDevelopment
        self.allowsProduction = allowsProduction
    }

    /// Every topic the certificate covers: the listed ones, or the UID when nothing is listed.
    public var coveredTopics: [String] {
        if !topics.isEmpty { return topics.map(\.name) }
        return subjectUID.map { [$0] } ?? []
    }

    /// The app bundle IDs it covers: listed topics of kind `app`, plus the UID.
    public var appTopics: Set<String> {
        var result = Set(topics.filter { $0.kind == "app" }.map(\.name))
        if let uid = subjectUID { result.insert(uid) }
        return result
    }

    /// Whether the certificate may be used against `environment`.
    public func allows(_ environment: APNsEnvironment) -> Bool {
        environment == .development ? allowsDevelopment : allowsProduction
    }
}
