/// A signing key the server trusts: which team owns it, its 10-character key ID, and the environments it
/// may be used in (new Apple keys are restricted to one environment; older ones work in both).
public struct TrustedKey: Sendable, Hashable, Codable {
    /// The 10-character Team ID that owns the key; a token's `iss` must equal it.
    public var teamID: String
    /// The 10-character Key ID; a token's `kid` names it.
    public var keyID: String
    /// Where the key may be used. A token used elsewhere gets `BadEnvironmentKeyIdInToken`.
    public var environments: Set<APNsEnvironment>

    /// Makes a trusted key (both environments unless told otherwise).
    public init(teamID: String, keyID: String, environments: Set<APNsEnvironment> = Set(APNsEnvironment.allCases)) {
        self.teamID = teamID
        self.keyID = keyID
        self.environments = environments
    }
}
