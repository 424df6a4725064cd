/// Checks a parsed JWT's signature: ES256 (APNs provider tokens) or RS256 (a Google service account's OAuth grant).
public enum JWTVerifier {
    /// True when `jwt.signature` (raw R‖S or DER) is a valid ES256 signature of `jwt.signingInput`
    /// by `key`. Only the signature is checked: the header's `alg`, the key ID and the claims are
    /// left to the caller (APNs's rules live in `APNsModel`).
    public static func isSignatureValid(_ jwt: JWT, key: P256PublicKey) -> Bool {
        key.isValidSignature(jwt.signature, for: jwt.signingInput)
    }

    /// True when `jwt.signature` is a valid RS256 signature of `jwt.signingInput` by `key`. Only the signature is
    /// checked: the header's `alg`, the key ID and the claims are left to the caller (Google's rules live in `FCMModel`).
    public static func isSignatureValid(_ jwt: JWT, key: RSAPublicKey) -> Bool {
        key.verifyRS256(signature: jwt.signature, signedBytes: jwt.signingInput)
    }
}
