import JSON

/// FCM registration tokens (fcm-rules §3.3): `<prefix>:APA91b<rest>`.
///
/// - The prefix is the app instance's id: a Firebase installation id (FID), 22 characters of the URL-safe base64
///   alphabet `A-Z a-z 0-9 - _`, or, in tokens from before Firebase Installations, an 11-character instance id of
///   the same alphabet (firebase-admin-python's integration tests use one: `fGw0qy4TGgk:APA91b…`).
/// - After the colon, `APA91b` and one or more characters of the same alphabet.
///
/// Google documents no exact length (real tokens are about 150 to 165 characters); the mock's model accepts at most
/// ``maximumLength``. A bare `APA91b…` (a GCM registration id from before instance ids) has no installation id,
/// which the mock needs, and is refused. What is refused is answered as Google does: 400 `INVALID_ARGUMENT`, "The
/// registration token is not a valid FCM registration token".
public struct FCMRegistrationToken: Sendable, Hashable, CustomStringConvertible {
    /// The whole token.
    public let token: String
    /// The installation id: the part before the colon (what an iPhone sees as `google.c.fid`).
    public let fid: String

    /// The marker every token carries after the colon.
    public static let marker = "APA91b"
    /// The longest token accepted.
    public static let maximumLength = 1024
    /// The length of a Firebase installation id.
    public static let fidLength = 22
    /// The length of an instance id, the older prefix.
    public static let instanceIDLength = 11
    /// How many characters a minted token has after `APA91b`: 134, so a minted token is 163 characters long, as
    /// current tokens are.
    public static let mintedRestLength = 134
    /// How many random bytes ``mint(randomBytes:)`` reads: 16 for the FID and 101 for the rest.
    public static let randomByteCount = 16 + (mintedRestLength * 6 + 7) / 8

    /// Parses `token`; throws 400 `INVALID_ARGUMENT` when it is not shaped like a registration token.
    public static func parse(_ token: String) throws(FCMError) -> FCMRegistrationToken {
        // On the string's own UTF-8 (every token of a send is read here): no copy of it.
        let fidEnd: Int? = JSONEscaping.withUTF8(of: token) { bytes in
            guard bytes.count <= maximumLength, bytes.count > instanceIDLength + 1 + markerBytes.count else { return nil }
            // The colon ends the id at one of its two lengths (a colon anywhere else fails the alphabet below).
            let colon = bytes.count > fidLength && bytes[fidLength] == UInt8(ascii: ":") ? fidLength
                : bytes[instanceIDLength] == UInt8(ascii: ":") ? instanceIDLength : -1
            guard colon > 0, bytes.count > colon + 1 + markerBytes.count else { return nil }
            return alphabet.withUnsafeBufferPointer { alphabet in
                for index in 0..<colon where !alphabet[Int(bytes[index])] { return nil }
                for index in 0..<markerBytes.count where bytes[colon + 1 + index] != markerBytes[index] { return nil }
                for index in (colon + 1 + markerBytes.count)..<bytes.count where !alphabet[Int(bytes[index])] { return nil }
                return colon
            }
        }
        guard let fidEnd else { throw FCMError.invalidRegistrationToken() }
        return FCMRegistrationToken(token: token, fid: String(token.utf8.prefix(fidEnd))!)
    }

    private static let markerBytes = Array(marker.utf8)
    /// ``isAlphabetByte(_:)`` for every byte value: a token's every byte is looked up here.
    private static let alphabet: [Bool] = (0...255).map { isAlphabetByte(UInt8($0)) }

    /// Whether `token` is shaped like a registration token.
    public static func isValid(_ token: String) -> Bool {
        (try? parse(token)) != nil
    }

    /// A new token from `randomBytes` (at least ``randomByteCount`` of them; the server passes its own randomness):
    /// a 22-character FID as Firebase Installations makes one (16 bytes whose first four bits are `0111`, so it starts
    /// with `c`, `d`, `e` or `f`), a colon, `APA91b` and 134 more characters: 163 in all.
    public static func mint(randomBytes: [UInt8]) -> FCMRegistrationToken {
        precondition(randomBytes.count >= randomByteCount, "mint needs \(randomByteCount) random bytes")
        var fidBytes = Array(randomBytes[0..<16])
        fidBytes[0] = 0b0111_0000 | (fidBytes[0] & 0x0F)
        let fid = String(Base64.encodedString(fidBytes, alphabet: .url, padded: false).prefix(fidLength))
        let rest = String(Base64.encodedString(Array(randomBytes[16..<randomByteCount]), alphabet: .url, padded: false)
            .prefix(mintedRestLength))
        return FCMRegistrationToken(token: fid + ":" + marker + rest, fid: fid)
    }

    /// A new token from `generator`'s bytes (``mint(randomBytes:)``).
    public static func mint(using generator: inout some RandomNumberGenerator) -> FCMRegistrationToken {
        mint(randomBytes: (0..<randomByteCount).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }

    /// The token.
    public var description: String { token }

    /// `A-Z a-z 0-9 - _`.
    static func isAlphabetByte(_ byte: UInt8) -> Bool {
        // One bit per ASCII byte (bytes 0–63, then 64–127).
        let bits: UInt64 = byte < 64 ? 0x03FF200000000000 : byte < 128 ? 0x07FFFFFE87FFFFFE : 0
        return (bits >> UInt64(byte & 63)) & 1 == 1
    }
}
