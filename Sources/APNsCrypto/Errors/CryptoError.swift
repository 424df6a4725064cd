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
        }
    }
}
