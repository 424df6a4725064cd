import JSON

/// The JWT-bearer grant a service account posts to `https://oauth2.googleapis.com/token` (RFC 7523; google-auth's
/// `jwt_grant`), read and checked as Google does, except for the signature (fcm-rules §2).
///
/// The body is a form, `grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer&assertion=<JWT>`. The JWT's header
/// is `{"alg": "RS256", "typ": "JWT", "kid": <private_key_id>}`, its claims `{"iss": <client_email>, "scope": "…",
/// "aud": "https://oauth2.googleapis.com/token", "iat": …, "exp": iat + 3600}`.
///
/// Two stages, so that only a grant whose signature verified learns about its times and scope (the rule the APNs
/// side follows too: a forged token gets no more specific answer):
/// 1. ``parse(formBody:)``: the form, the grant type, the JWT's shape, `alg` RS256, a `kid` and an `iss`. The caller
///    then finds the key `kid` names (else ``OAuthError/invalidSignature``), verifies RS256 over ``signingInput``
///    with ``signature`` (else the same), and checks that `iss` is that key's account (else
///    ``OAuthError/accountNotFound``).
/// 2. ``check(now:)``: `aud`, `iat` and `exp`, and the scope.
/// ``parse(formBody:now:)`` runs both stages for a caller that verifies afterwards.
public struct OAuthAssertion: Sendable, Hashable {
    /// The only grant type served.
    public static let jwtBearerGrantType = "urn:ietf:params:oauth:grant-type:jwt-bearer"
    /// The audience every grant must name, whatever the account file's `token_uri` says (google-auth since 2021).
    public static let audience = "https://oauth2.googleapis.com/token"
    /// The scopes that allow `messages:send`.
    public static let messagingScopes: Set<String> = [
        "https://www.googleapis.com/auth/firebase.messaging", "https://www.googleapis.com/auth/cloud-platform",
    ]
    /// The longest life a grant may claim, `exp - iat`: one hour.
    public static let maximumLifetime: Int64 = 3600
    /// How far ahead of the mock's clock `iat` may be: a minute, the skew the APNs rules allow too (Google documents
    /// none; the mock's model).
    public static let allowedClockSkew: Int64 = 60
    /// The lifetime of an access token, as Google answers it.
    public static let accessTokenLifetime: Int64 = 3599

    /// The header's `kid`: the service account's `private_key_id`.
    public var keyID: String
    /// `iss`: the service account's `client_email`.
    public var issuer: String
    /// `sub`, when the grant asks to act for another account.
    public var subject: String?
    /// The decoded header.
    public var header: JSONValue
    /// The decoded claims.
    public var claims: JSONValue
    /// The bytes RS256 signs: the first two parts of the JWT and the dot between them.
    public var signingInput: [UInt8]
    /// The signature, decoded from base64url.
    public var signature: [UInt8]

    /// Stage 1: reads the form and the JWT (see the type's documentation).
    public static func parse(formBody body: some Collection<UInt8>) throws(OAuthError) -> OAuthAssertion {
        guard let fields = FormURLEncoding.decode(body) else {
            throw OAuthError.invalidRequest("Invalid request: the body is not application/x-www-form-urlencoded.")
        }
        var values: [String: String] = [:]
        for field in fields {
            guard values[field.name] == nil else {
                throw OAuthError.invalidRequest("Invalid request: parameter \(field.name) is repeated.")
            }
            values[field.name] = field.value
        }
        guard let grantType = values["grant_type"] else { throw OAuthError.invalidRequest("Missing required parameter: grant_type") }
        guard grantType == jwtBearerGrantType else { throw OAuthError.unsupportedGrantType("Invalid grant_type: \(grantType)") }
        guard let assertion = values["assertion"] else { throw OAuthError.invalidRequest("Missing required parameter: assertion") }

        let parts = Array(assertion.utf8).split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count == 3, let headerBytes = Base64.decode(parts[0], alphabet: .url, padding: .optional),
              let claimBytes = Base64.decode(parts[1], alphabet: .url, padding: .optional),
              let signature = Base64.decode(parts[2], alphabet: .url, padding: .optional),
              let header = try? JSONValue.parse(headerBytes), header.isJSONObject,
              let claims = try? JSONValue.parse(claimBytes), claims.isJSONObject else {
            throw OAuthError.invalidGrant("Invalid JWT: the assertion must be three base64url parts, a JSON header and JSON claims, joined by dots.")
        }
        guard header["alg"]?.stringValue == "RS256" else {
            throw OAuthError.invalidGrant("Invalid JWT: the header's alg must be RS256, not \(header["alg"]?.jsonText() ?? "missing").")
        }
        guard let keyID = header["kid"]?.stringValue, !keyID.isEmpty else {
            throw OAuthError.invalidGrant("Invalid JWT: the header must name the signing key (kid), the account's private_key_id.")
        }
        guard let issuer = claims["iss"]?.stringValue, !issuer.isEmpty else {
            throw OAuthError.invalidGrant("Invalid JWT: the iss claim, the service account's client_email, is missing.")
        }
        guard !signature.isEmpty else { throw OAuthError.invalidSignature }
        return OAuthAssertion(keyID: keyID, issuer: issuer, subject: claims["sub"]?.stringValue, header: header, claims: claims,
                              signingInput: Array(parts[0]) + [UInt8(ascii: ".")] + Array(parts[1]), signature: signature)
    }

    /// Both stages: ``parse(formBody:)`` then ``check(now:)``.
    public static func parse(formBody body: some Collection<UInt8>, now: Int64) throws(OAuthError) -> OAuthAssertion {
        let assertion = try parse(formBody: body)
        try assertion.check(now: now)
        return assertion
    }

    /// Stage 2, at `now` (seconds since 1970): `aud` is ``audience`` (a string, or an array holding it); `iat` and
    /// `exp` are integers, `iat <= exp`, `exp - iat <= 3600`, `iat` at most ``allowedClockSkew`` ahead of now and
    /// `exp` after now; `scope` (space-separated) holds one of ``messagingScopes``. Arithmetic on the wire's
    /// numbers is checked: a difference that leaves Int64 is out of bounds, not a trap.
    public func check(now: Int64) throws(OAuthError) {
        let audiences: [String] = claims["aud"]?.stringValue.map { [$0] } ?? claims["aud"]?.arrayElements?.compactMap(\.stringValue) ?? []
        guard audiences.contains(Self.audience) else {
            throw OAuthError.invalidGrant("Invalid JWT: Failed audience check. The right audience is \(Self.audience)")
        }
        guard let issuedAt = claims["iat"]?.integerValue, let expiresAt = claims["exp"]?.integerValue else {
            throw OAuthError.notShortLived
        }
        let (lifetime, lifetimeOverflow) = expiresAt.subtractingReportingOverflow(issuedAt)
        let (latest, latestOverflow) = now.addingReportingOverflow(Self.allowedClockSkew)
        guard !lifetimeOverflow, lifetime >= 0, lifetime <= Self.maximumLifetime,
              latestOverflow || issuedAt <= latest, expiresAt > now else { throw OAuthError.notShortLived }
        let scopes = (claims["scope"]?.stringValue ?? "").split(separator: " ").map(String.init)
        guard scopes.contains(where: Self.messagingScopes.contains) else { throw OAuthError.badScope }
    }

    /// `iat`, when it is an integer.
    public var issuedAt: Int64? { claims["iat"]?.integerValue }
    /// `exp`, when it is an integer.
    public var expiresAt: Int64? { claims["exp"]?.integerValue }
    /// `scope`, split at spaces.
    public var scopes: [String] { (claims["scope"]?.stringValue ?? "").split(separator: " ").map(String.init) }

    /// The token endpoint's answer to a good grant: `{"access_token", "expires_in", "token_type": "Bearer"}`.
    public static func tokenAnswer(accessToken: String, expiresIn: Int64 = OAuthAssertion.accessTokenLifetime) -> JSONValue {
        .object([
            .init("access_token", .string(accessToken)), .init("expires_in", .integer(expiresIn)), .init("token_type", .string("Bearer")),
        ])
    }
}
