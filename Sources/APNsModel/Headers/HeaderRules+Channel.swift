/// The broadcast and channel-management header rules.
extension HeaderRules {
    /// The longest `apns-channel-id` accepted, in characters. Apple says only "do not assume a length" and that
    /// an ID that is too long is `BadChannelId`; we pick a generous 256.
    public static let maximumChannelIDLength = 256

    /// `apns-channel-id`: absent or empty → `MissingChannelId`; not base64 (standard or URL-safe alphabet,
    /// optional `=` padding, lenient on which) or longer than `maximumChannelIDLength` → `BadChannelId`.
    public static func checkChannelID(_ value: String?) -> Result<String, APNsReason> {
        guard let value, !value.isEmpty else { return .failure(.missingChannelId) }
        return isBase64(value) && value.utf8.count <= maximumChannelIDLength ? .success(value) : .failure(.badChannelId)
    }

    /// Whether `value` is base64 text: alphabet `A-Z a-z 0-9 + / - _`, then at most two `=` closing a
    /// multiple of four characters; unpadded text may not leave a single dangling character.
    public static func isBase64(_ value: String) -> Bool {
        let bytes = Array(value.utf8)
        guard !bytes.isEmpty else { return false }
        var padding = 0
        for byte in bytes {
            if byte == UInt8(ascii: "=") {
                padding += 1
                continue
            }
            guard padding == 0 else { return false }  // data after padding
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "/"),
                 UInt8(ascii: "-"), UInt8(ascii: "_"):
                continue
            default:
                return false
            }
        }
        if padding > 2 || padding == bytes.count { return false }
        if padding > 0 { return bytes.count % 4 == 0 }
        return bytes.count % 4 != 1
    }
}
