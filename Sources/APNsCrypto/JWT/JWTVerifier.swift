/// Checks a parsed provider token's ES256 signature.
public enum JWTVerifier {
    /// True when `jwt.signature` (raw R‖S or DER) is a valid ES256 signature of `jwt.signingInput`
    /// by `key`. Only the signature is checked: the header's `alg`, the key ID and the claims are
    /// left to the caller (APNs's rules live in `APNsModel`).
    public static func isSignatureValid(_ jwt: JWT, key: P256PublicKey) -> Bool {
        key.isValidSignature(jwt.signature, for: jwt.signingInput)
    }
}
