import JSON

/// Base64url without padding (RFC 4648 §5), the encoding of every JWT segment. Tokens are read with the JSON module's
/// decoder (`Base64.decode(_:alphabet: .url, padding: .optional)`: unpadded, or padded to a multiple of four).
public enum Base64URL {
    /// Encodes `bytes` without `=` padding, as JWS requires.
    public static func encode(_ bytes: [UInt8]) -> String {
        Base64.encodedString(bytes, alphabet: .url, padded: false)
    }
}
