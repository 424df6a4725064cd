import APNsModel

/// The test keys and certificates of `certs/`, as facts the model can use directly (no crypto in this target).
public enum TestCredentials {
    /// A fixed "now" for unit tests: 2027-01-15.
    public static let now: Int64 = 1_800_000_000

    /// The trusted keys, by key ID.
    public static let keys: [String: TrustedKey] = [
        "TESTKEY001": TrustedKey(teamID: "TESTTEAM01", keyID: "TESTKEY001", environments: [.development, .production]),
        "OTHERKEY01": TrustedKey(teamID: "OTHERTEAM1", keyID: "OTHERKEY01", environments: [.development, .production]),
        "DEVKEY0001": TrustedKey(teamID: "TESTTEAM01", keyID: "DEVKEY0001", environments: [.development]),
        "PRODKEY001": TrustedKey(teamID: "TESTTEAM01", keyID: "PRODKEY001", environments: [.production]),
        "TOPICKEY01": TrustedKey(teamID: "TESTTEAM01", keyID: "TOPICKEY01", environments: [.development],
                                 topics: ["com.example.app"]),
    ]

    public static let appTopics = [
        CertificateTopic(name: "com.example.app", kind: "app"),
        CertificateTopic(name: "com.example.app.voip", kind: "voip"),
        CertificateTopic(name: "com.example.app.complication", kind: "complication"),
    ]

    /// The client certificates, by file name.
    public static let certificates: [String: CertificateFacts] = [
        "client-app": CertificateFacts(trusted: true, subjectUID: "com.example.app", topics: appTopics),
        "client-dev-only": CertificateFacts(trusted: true, subjectUID: "com.example.app", topics: appTopics,
                                            allowsDevelopment: true, allowsProduction: false),
        "client-single-topic": CertificateFacts(trusted: true, subjectUID: "com.example.single"),
        "client-all-topics": CertificateFacts(trusted: true, subjectUID: "com.example.all", topics: [
            .init(name: "com.example.all", kind: "app"), .init(name: "com.example.all.voip", kind: "voip"),
            .init(name: "com.example.all.complication", kind: "complication"),
            .init(name: "com.example.all.pushkit.fileprovider", kind: "fileprovider"),
            .init(name: "com.example.all.push-type.widgets", kind: "widgets"),
            .init(name: "com.example.all.push-type.controls", kind: "controls"),
            .init(name: "com.example.all.push-type.liveactivity", kind: "liveactivity"),
            .init(name: "com.example.all.location-query", kind: "location"),
            .init(name: "com.example.all.voip-ptt", kind: "pushtotalk"),
        ]),
        "client-mdm": CertificateFacts(trusted: true, subjectUID: "com.apple.mgmt.External.0c0ffee0-test"),
        "client-untrusted": CertificateFacts(trusted: false, subjectUID: "com.example.app", topics: appTopics),
    ]

    /// Token facts as the crypto layer would report them. The token string is derived from every field, so
    /// equal arguments mean the same token, and any difference a new one.
    public static func token(key keyID: String? = "TESTKEY001", team: String? = "TESTTEAM01", iat: ProviderTokenFacts.IssuedAt? = nil,
                      alg: String? = "ES256", signature: ProviderTokenFacts.SignatureCheck = .valid,
                      label: String = "") -> ProviderTokenFacts {
        let issuedAt = iat ?? .seconds(now)
        let text = "\(alg ?? "-").\(keyID ?? "-").\(team ?? "-").\(issuedAt).\(signature)\(label)"
        return ProviderTokenFacts(token: text, algorithm: alg, keyID: keyID, issuer: team, issuedAt: issuedAt,
                                  signature: signature, key: keyID.flatMap { keys[$0] })
    }

    /// A token credential.
    public static func tokenCredential(key: String = "TESTKEY001", team: String = "TESTTEAM01", iatOffset: Int64 = 0)
        -> ProviderCredential
    {
        .token(token(key: key, team: team, iat: .seconds(now + iatOffset)))
    }

    /// A certificate credential by file name.
    public static func certificate(_ name: String) -> ProviderCredential {
        .certificate(certificates[name]!)
    }
}

/// Request-building shortcuts.
public enum Requests {
    public static let token64 = "5e7a2b1c9d4f0e3a6b8c7d2e1f0a9b8c7d6e5f4a3b2c1d0e9f8a7b6c5d4e3f2a"

    public static func device(_ headers: [(String, String)], body: String = #"{"aps":{"alert":"Hello"}}"#,
                       token: String = token64, method: String = "POST") -> APNsRequest {
        APNsRequest(method: method, path: "/3/device/" + token, headers: headers.map { HeaderField($0.0, $0.1) },
                    body: Array(body.utf8))
    }

    public static func decide(_ request: APNsRequest, credential: ProviderCredential = TestCredentials.tokenCredential(),
                       environment: APNsEnvironment = .development) -> Verdict {
        var connection = TokenConnectionState()
        let context = DecisionContext(environment: environment, credential: credential, now: TestCredentials.now)
        return RequestDecider.decide(request, context: context, connection: &connection)
    }
}
