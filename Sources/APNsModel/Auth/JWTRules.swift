/// The provider-token (JWT) claim and time rules, applied to what the crypto layer found.
///
/// Order, and why:
/// 1. `alg` must be `ES256` (the only algorithm APNs supports) → `InvalidProviderToken`.
/// 2. `kid` and `iss` must be present → `InvalidProviderToken`.
/// 3. `kid` must name a trusted key → `InvalidProviderToken`.
/// 4. `iss` must be that key's team → `InvalidProviderToken` (a key signs only for its own team).
/// 5. The signature must verify (or be unchecked) → `InvalidProviderToken`.
/// 6. `iat` must be a number → `InvalidProviderToken`.
/// 7. `iat` at most 60 s in the future (clock skew allowance) → `InvalidProviderToken`.
/// 8. `iat` at most 3600 s old → `ExpiredProviderToken`.
///
/// Structure and identity come before time so that a forged or foreign token never learns anything from a
/// more specific answer: only a token that really comes from a trusted key is told it has *expired*.
/// Connection-level rules (team binding, related keys, environment, refresh rate) are `TokenConnectionState`'s.
public enum JWTRules {
    /// How far in the future `iat` may be, in seconds, before the token is invalid. APNs documents no value;
    /// one minute absorbs ordinary clock skew (lenient).
    public static let allowedClockSkew: Int64 = 60
    /// How old `iat` may be, in seconds, before the token has expired: one hour, per Apple.
    public static let maximumAge: Int64 = 3600

    /// The reason the token is refused at time `now` (epoch seconds), or `nil` when it is acceptable.
    public static func check(_ facts: ProviderTokenFacts, now: Int64) -> APNsReason? {
        guard facts.algorithm == "ES256" else { return .invalidProviderToken }
        guard let keyID = facts.keyID, !keyID.isEmpty, let issuer = facts.issuer, !issuer.isEmpty else {
            return .invalidProviderToken
        }
        guard let key = facts.key, key.keyID == keyID else { return .invalidProviderToken }
        guard key.teamID == issuer else { return .invalidProviderToken }
        guard facts.signature != .invalid else { return .invalidProviderToken }
        guard case .seconds(let iat) = facts.issuedAt else { return .invalidProviderToken }
        // `iat` comes from the wire and may be any Int64: the age is computed with an overflow check (an age
        // past Int64.max is older than any limit); `now` is the server's own clock, so `now + skew` cannot overflow.
        if iat > now + allowedClockSkew { return .invalidProviderToken }
        let (age, overflow) = now.subtractingReportingOverflow(iat)
        if overflow || age > maximumAge { return .expiredProviderToken }
        return nil
    }
}
