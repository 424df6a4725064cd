import JSON

/// An error of Google's token endpoint, in RFC 6749 §5.2's shape: `{"error": "invalid_grant",
/// "error_description": "…"}` with status 400 (fcm-rules §2.5).
public struct OAuthError: Error, Sendable, Hashable, CustomStringConvertible {
    /// RFC 6749's error codes, as Google uses them.
    public enum Code: String, Sendable, Hashable, CaseIterable {
        /// A parameter is missing, repeated or malformed.
        case invalidRequest = "invalid_request"
        /// `grant_type` is not the JWT-bearer grant.
        case unsupportedGrantType = "unsupported_grant_type"
        /// The assertion is malformed, mis-signed, expired, for another audience or of an unknown account.
        case invalidGrant = "invalid_grant"
        /// The scope is missing or names nothing the mock grants.
        case invalidScope = "invalid_scope"
    }

    /// `error`.
    public var error: Code
    /// `error_description`.
    public var errorDescription: String

    /// Makes an error.
    public init(_ error: Code, _ errorDescription: String) {
        self.error = error
        self.errorDescription = errorDescription
    }

    /// 400, as Google answers every one of these.
    public var httpStatus: Int { 400 }

    /// `{"error": …, "error_description": …}`.
    public var json: JSONValue {
        .object([.init("error", .string(error.rawValue)), .init("error_description", .string(errorDescription))])
    }

    /// The body as UTF-8 bytes, indented with a final newline.
    public func jsonBody() -> [UInt8] {
        json.prettyBytes() + [UInt8(ascii: "\n")]
    }

    /// "invalid_grant: Invalid JWT Signature."
    public var description: String { "\(error.rawValue): \(errorDescription)" }

    /// `invalid_request` with `description`.
    public static func invalidRequest(_ description: String) -> OAuthError { OAuthError(.invalidRequest, description) }
    /// `invalid_grant` with `description`.
    public static func invalidGrant(_ description: String) -> OAuthError { OAuthError(.invalidGrant, description) }
    /// `unsupported_grant_type` with `description`.
    public static func unsupportedGrantType(_ description: String) -> OAuthError { OAuthError(.unsupportedGrantType, description) }
    /// `invalid_scope` with `description`.
    public static func invalidScope(_ description: String) -> OAuthError { OAuthError(.invalidScope, description) }

    /// Google's answer to a signature that does not verify under the key `kid` names, or a `kid` it does not know.
    public static let invalidSignature = OAuthError(.invalidGrant, "Invalid JWT Signature.")
    /// Google's answer to an `iss` that is no service account.
    public static let accountNotFound = OAuthError(.invalidGrant, "Invalid grant: account not found")
    /// Google's answer to `iat`/`exp` out of bounds.
    public static let notShortLived = OAuthError(.invalidGrant,
        "Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe. Check your iat and exp values in the JWT claim.")
    /// Google's answer to a missing or unknown scope.
    public static let badScope = OAuthError(.invalidScope, "Invalid OAuth scope or ID token audience provided.")
}
