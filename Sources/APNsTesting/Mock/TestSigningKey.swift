import MockAPNs

/// The bundled test signing key the mock trusts: what a sender needs for provider-token authentication.
/// Test-only: it ships in the repository and must never sign anything real.
public struct TestSigningKey: Sendable, Hashable {
    /// The team ID (`iss` of the provider token), `TESTTEAM01`.
    public var teamID: String
    /// The key ID (`kid` of the provider token), `TESTKEY001`.
    public var keyID: String
    /// The `.p8` private key, PEM text.
    public var privateKeyPEM: String

    /// Makes a key description.
    public init(teamID: String, keyID: String, privateKeyPEM: String) {
        self.teamID = teamID
        self.keyID = keyID
        self.privateKeyPEM = privateKeyPEM
    }

    /// The key ID of the bundled test key.
    public static let bundledKeyID = "TESTKEY001"
    /// The team ID of the bundled test key.
    public static let bundledTeamID = "TESTTEAM01"

    /// Reads `AuthKey_TESTKEY001.p8` from a credentials folder.
    static func bundled(in credentials: BundledCredentials) throws(APNsMockError) -> TestSigningKey {
        let path = credentials.directory + "/AuthKey_\(bundledKeyID).p8"
        return TestSigningKey(teamID: bundledTeamID, keyID: bundledKeyID, privateKeyPEM: try APNsMockError.readText(path))
    }
}
