/// The token-auth state of one HTTP/2 connection: which team and key it is bound to, which token is in use
/// and since when, and whether a request has succeeded yet.
///
/// APNs binds a connection to the team and key of its first successfully authenticated token, and limits
/// how often the token may change. One value lives beside each connection; it is not shared.
public struct TokenConnectionState: Sendable, Hashable {
    /// The team the connection is bound to, once a token has been admitted.
    public private(set) var teamID: String?
    /// The key the connection is bound to, once a token has been admitted.
    public private(set) var keyID: String?
    /// The token string in use.
    public private(set) var currentToken: String?
    /// When (epoch seconds) `currentToken` was first admitted on this connection.
    public private(set) var currentTokenSince: Int64?
    /// Whether a request on this connection has succeeded (the server then lifts the 1-stream limit).
    public private(set) var hasSucceeded: Bool

    /// The shortest time between two different tokens on one connection: 20 minutes, per Apple.
    public static let minimumTokenInterval: Int64 = 20 * 60

    /// A fresh, unbound connection.
    public init() {
        teamID = nil
        keyID = nil
        currentToken = nil
        currentTokenSince = nil
        hasSucceeded = false
    }

    /// Applies the connection rules to a token that already passed `JWTRules`, and records the binding on
    /// success. Order:
    /// 1. Another team than the bound one → `403 Forbidden`. Which reason APNs sends here is not documented
    ///    (pushy's mock says `InvalidProviderToken`); `Forbidden` ("the action is not allowed") fits Apple's
    ///    text that one connection cannot serve several teams.
    /// 2. Another key than the bound one (same team) → `403 UnrelatedKeyIdInToken`. (Apple lets a topic key use
    ///    its one "related" key on the same connection; the model has no topic keys, so every other key is
    ///    unrelated.)
    /// 3. A key restricted to the other environment → `environmentKeyReason` (`BadEnvironmentKeyIdInToken` by
    ///    default; `BadEnvironmentKeyInToken` is the spelling APNs reportedly sends).
    /// 4. A token string different from the current one, less than 20 minutes after the current one was first
    ///    used → `429 TooManyProviderTokenUpdates`. Re-sending the same token is always fine.
    /// The binding checks come before the rate check because a token that could never be used on this
    /// connection should say so, not "try again later".
    public mutating func admit(_ facts: ProviderTokenFacts, environment: APNsEnvironment, now: Int64,
                               environmentKeyReason: APNsReason = .badEnvironmentKeyIdInToken) -> APNsReason? {
        if let teamID, facts.issuer != teamID { return .forbidden }
        if let keyID, facts.keyID != keyID { return .unrelatedKeyIdInToken }
        // A key allowed everywhere (the usual case) needs no hashing: a set of every environment holds this one.
        if let key = facts.key, key.environments.count != APNsEnvironment.allCases.count,
           !key.environments.contains(environment) {
            return environmentKeyReason
        }
        if let currentToken, let since = currentTokenSince, facts.token != currentToken,
           now - since < Self.minimumTokenInterval {
            return .tooManyProviderTokenUpdates
        }
        if teamID == nil { teamID = facts.issuer }
        if keyID == nil { keyID = facts.keyID }
        if facts.token != currentToken {
            currentToken = facts.token
            currentTokenSince = now
        }
        return nil
    }

    /// Records that a request on this connection succeeded. The server calls it after answering 200, and then
    /// raises `SETTINGS_MAX_CONCURRENT_STREAMS` above 1.
    public mutating func recordSuccess() {
        hasSucceeded = true
    }
}
