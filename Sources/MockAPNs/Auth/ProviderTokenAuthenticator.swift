import APNsCrypto
import APNsModel
import Support

/// Turns an `authorization` header into what the model's JWT rules need, verifying each distinct token
/// string once: the signature check (the only costly step) is cached by token string.
///
/// The time rules (`iat` too old or in the future) are not cached: the model applies them per request.
public final class ProviderTokenAuthenticator: Sendable {
    private let keys: TrustedKeyStore
    private let trustAnySignature: Bool
    private let cache = Locked<[String: ProviderTokenFacts]>([:])
    /// The most distinct tokens remembered; past it the cache starts over (tokens change every ~50 minutes).
    static let cacheLimit = 10_000

    /// Checks tokens against `keys`; with `trustAnySignature`, shape, claims and time are checked but
    /// signatures are not (for users who will not give a mock their real key).
    public init(keys: TrustedKeyStore, trustAnySignature: Bool) {
        self.keys = keys
        self.trustAnySignature = trustAnySignature
    }

    /// The credential for a token-authenticated request, from its `authorization` header values.
    public func credential(authorization: String?) -> ProviderCredential {
        guard let authorization else { return .none }
        let token: String
        if let ascii = Self.asciiBearerToken(authorization) {
            guard let ascii else { return .malformedToken }
            token = ascii
        } else {
            guard authorization.count > 7, authorization.prefix(7).lowercased() == "bearer " else { return .malformedToken }
            token = String(authorization.dropFirst(7)).trimmingCharacters(in: " ")
        }
        if let cached = cache.withLock({ $0[token] }) { return .token(cached) }
        guard let jwt = try? JWT.parse(token) else { return .malformedToken }
        let entry = jwt.keyID.flatMap(keys.entry(keyID:))
        let signature: ProviderTokenFacts.SignatureCheck
        if trustAnySignature {
            signature = .notChecked
        } else if let entry {
            signature = JWTVerifier.isSignatureValid(jwt, key: entry.publicKey) ? .valid : .invalid
        } else {
            signature = .invalid
        }
        let issuedAt: ProviderTokenFacts.IssuedAt
        switch jwt.issuedAt {
        case .missing: issuedAt = .missing
        case .invalid: issuedAt = .invalid
        case .seconds(let s): issuedAt = .seconds(s)
        }
        // With --trust-any-signature an unknown key is still bound to the token's own team, so binding
        // rules (one team, one key per connection) keep working.
        let key = entry?.key ?? (trustAnySignature
            ? jwt.keyID.map { TrustedKey(teamID: jwt.issuer ?? "", keyID: $0, environments: [.development, .production]) }
            : nil)
        let facts = ProviderTokenFacts(
            token: token, algorithm: jwt.algorithm, keyID: jwt.keyID, issuer: jwt.issuer,
            issuedAt: issuedAt, signature: signature, key: key)
        cache.withLock { cache in
            if cache.count >= Self.cacheLimit { cache.removeAll(keepingCapacity: true) }
            cache[token] = facts
        }
        return .token(facts)
    }
}

extension ProviderTokenAuthenticator {
    /// For an ASCII `authorization` value (every real one), the token after a case-insensitive `bearer `,
    /// with spaces trimmed from both ends, found on bytes: `.some(nil)` when the value is not of that form.
    /// `nil` when the value is not ASCII; the caller then uses the `Character`-based rule, which gives the
    /// same answers on ASCII text.
    static func asciiBearerToken(_ authorization: String) -> String?? {
        let bytes = authorization.utf8
        guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
        guard bytes.count > 7,
              zip(bytes, "bearer ".utf8).allSatisfy({ ((0x41...0x5A).contains($0) ? $0 | 0x20 : $0) == $1 })
        else { return .some(nil) }
        var token = bytes.dropFirst(7)
        while token.first == UInt8(ascii: " ") { token = token.dropFirst() }
        while token.last == UInt8(ascii: " ") { token = token.dropLast() }
        return .some(String(Substring(token)))
    }
}

private extension String {
    func trimmingCharacters(in set: Character) -> String {
        var s = Substring(self)
        while s.first == set { s = s.dropFirst() }
        while s.last == set { s = s.dropLast() }
        return String(s)
    }
}
