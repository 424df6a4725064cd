/// A signing key the server trusts: which team owns it, its 10-character key ID, the environments it may be
/// used in, and, for a topic-specific key, the topics it may sign for.
///
/// Apple, "Establishing a token-based connection to APNs" (developer.apple.com/documentation/usernotifications/
/// establishing-a-token-based-connection-to-apns): team-scoped keys send to any topic in the team and are
/// restricted to Sandbox or Production; topic-specific keys send to specific team topics within a single
/// environment (up to 400 topics per key), for granular control. Older keys still work in both environments and
/// for every topic. Apple names no reason for a push outside a topic key's topics; we answer `TopicDisallowed`
/// (reason chosen: "pushing to this topic is not allowed"), `TopicMismatch` on the broadcast APIs, as for a
/// certificate that does not cover the app.
public struct TrustedKey: Sendable, Hashable, Codable {
    /// The 10-character Team ID that owns the key; a token's `iss` must equal it.
    public var teamID: String
    /// The 10-character Key ID; a token's `kid` names it.
    public var keyID: String
    /// Where the key may be used. A token used elsewhere gets `BadEnvironmentKeyIdInToken`.
    public var environments: Set<APNsEnvironment>
    /// For a topic-specific key, the bundle IDs (topics) it may sign for; a push-type suffix is covered with its
    /// bundle ID. `nil`: a team-scoped key, every topic of the team.
    public var topics: Set<String>?

    /// Makes a trusted key (both environments and every topic unless told otherwise).
    public init(teamID: String, keyID: String, environments: Set<APNsEnvironment> = Set(APNsEnvironment.allCases),
                topics: Set<String>? = nil) {
        self.teamID = teamID
        self.keyID = keyID
        self.environments = environments
        self.topics = topics
    }

    /// Whether the key may sign for `topic` (its bundle ID, or the topic itself, is in `topics`).
    public func covers(topic: String) -> Bool {
        guard let topics else { return true }
        return topics.contains(topic) || topics.contains(TopicRules.bundleID(of: topic))
    }
}
