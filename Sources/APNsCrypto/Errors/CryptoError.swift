/// Why a key, signature or certificate operation failed.
///
/// Each case says what was expected and, where OpenSSL reported something, carries OpenSSL's own
/// error text so a user can see the underlying cause (for example "bad decrypt" or "no start line").
public enum CryptoError: Error, Equatable, CustomStringConvertible {
    /// The text is not a PEM block of the expected kind, or OpenSSL could not decode it.
    case invalidPEM(expected: String, openSSL: String)
    /// The bytes are not DER of the expected kind.
    case invalidDER(expected: String, openSSL: String)
    /// The key decoded, but it is not an EC key on the P-256 curve (what ES256 and APNs require).
    case unsupportedKey(found: String)
    /// A file could not be read.
    case fileUnreadable(path: String, reason: String)
    /// OpenSSL refused to produce a signature.
    case signingFailed(openSSL: String)
    /// A CA bundle contained no certificate.
    case noCertificates
    /// A certificate decoded, but one of its APNs fields could not be read.
    case malformedCertificate(reason: String)
    /// Creating a key, certificate or trust store failed inside OpenSSL.
    case operationFailed(step: String, openSSL: String)
    /// A value passed to `TestCredentialFactory` cannot go into a certificate.
    case invalidArgument(String)
    /// The key decoded, but it is not an RSA key (what RS256 and Google service accounts use).
    case notRSAKey(found: String)
    /// The RSA key is shorter than RS256 allows (2048 bits, RFC 7518 §3.3).
    case rsaKeyTooSmall(bits: Int)
    /// The PEM text has the two characters `\n` where its line breaks belong (copied out of a JSON string).
    case escapedPEM(expected: String)
    /// OpenSSL refused to produce an RS256 signature.
    case rs256SigningFailed(openSSL: String)

    /// A sentence a user can act on.
    public var description: String {
        switch self {
        case let .invalidPEM(expected, openSSL):
            return "Expected a PEM \(expected) (-----BEGIN …----- block) but could not decode one: \(openSSL). "
                + "Check that the file is the right one and is not encrypted."
        case let .invalidDER(expected, openSSL):
            return "Expected DER-encoded \(expected) but could not decode it: \(openSSL)."
        case let .unsupportedKey(found):
            return "The key is \(found), but APNs provider tokens (ES256) need an EC P-256 key such as an AuthKey_XXXXXXXXXX.p8 file."
        case let .fileUnreadable(path, reason):
            return "Could not read \(path): \(reason)."
        case let .signingFailed(openSSL):
            return "ES256 signing failed: \(openSSL)."
        case .noCertificates:
            return "The CA bundle contains no -----BEGIN CERTIFICATE----- block; pass one or more PEM certificates."
        case let .malformedCertificate(reason):
            return "The certificate is not a usable APNs client certificate: \(reason)."
        case let .operationFailed(step, openSSL):
            return "OpenSSL failed to \(step): \(openSSL)."
        case let .invalidArgument(reason):
            return "Cannot create the certificate: \(reason)."
        case let .notRSAKey(found):
            return "The key is \(found), but RS256 (Google service accounts, FCM's OAuth grant) needs an RSA key: the "
                + "\"private_key\" of a service-account JSON file (-----BEGIN PRIVATE KEY-----), its public key or its certificate."
        case let .rsaKeyTooSmall(bits):
            return "The RSA key has \(bits) bits, but RS256 needs at least 2048 (RFC 7518 §3.3, and Google's service-account keys "
                + "have 2048); make a new one with `openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048`."
        case let .escapedPEM(expected):
            return "Expected a PEM \(expected), but the text has the two characters \\n where its line breaks belong (copied out "
                + "of a JSON string such as a service-account file's \"private_key\"); replace each \\n with a line break, or "
                + "give the JSON file itself."
        case let .rs256SigningFailed(openSSL):
            return "RS256 signing failed: \(openSSL)."
        }
    }
}
