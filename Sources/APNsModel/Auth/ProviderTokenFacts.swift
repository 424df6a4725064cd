/// What the crypto layer found in a bearer token (JWT). The model never verifies signatures itself; it
/// takes the outcome as input so the claim and time rules stay pure and testable.
public struct ProviderTokenFacts: Sendable, Hashable {
    /// The `iat` claim as found.
    public enum IssuedAt: Sendable, Hashable {
        /// No `iat` claim.
        case missing
        /// An `iat` that is not a NumericDate (null, bool, object, non-numeric string, non-finite or outside
        /// Int64 seconds; reading integers, fractions and numeric strings is the crypto layer's call, this says
        /// it could not read one).
        case invalid
        /// Seconds since 1970, rounded down; any Int64, so rules on it must use checked arithmetic.
        case seconds(Int64)
    }

    /// The outcome of checking the signature against the key named by `kid`.
    public enum SignatureCheck: Sendable, Hashable {
        /// The signature verifies with the trusted key.
        case valid
        /// The signature does not verify (or cannot be decoded).
        case invalid
        /// Not checked (`--trust-any-signature`); treated as valid.
        case notChecked
    }

    /// The token text after `bearer `, used to notice token changes on a connection.
    public var token: String
    /// The JOSE header `alg`.
    public var algorithm: String?
    /// The JOSE header `kid`.
    public var keyID: String?
    /// The `iss` claim (Team ID).
    public var issuer: String?
    /// The `iat` claim.
    public var issuedAt: IssuedAt
    /// The signature check's outcome.
    public var signature: SignatureCheck
    /// The trusted key whose ID is `kid`, or `nil` when no trusted key has that ID.
    public var key: TrustedKey?

    /// Makes token facts.
    public init(token: String, algorithm: String?, keyID: String?, issuer: String?, issuedAt: IssuedAt,
                signature: SignatureCheck, key: TrustedKey?) {
        self.token = token
        self.algorithm = algorithm
        self.keyID = keyID
        self.issuer = issuer
        self.issuedAt = issuedAt
        self.signature = signature
        self.key = key
    }
}
