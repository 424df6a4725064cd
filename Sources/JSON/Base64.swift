/// The package's one base64 encoder (RFC 4648): the standard alphabet with padding for the `payload_base64` of a
/// record whose body is not JSON, and the URL alphabet without padding for JWT segments (base64url-encoded JSON).
package enum Base64 {
    /// The 64 characters a 6-bit group is written as.
    package enum Alphabet: Sendable {
        /// `A–Z a–z 0–9 + /` (§4).
        case standard
        /// `A–Z a–z 0–9 - _` (§5), safe in URLs and JWTs.
        case url

        /// The characters, in the order of the values they stand for.
        package var characters: [UInt8] {
            switch self {
            case .standard: Base64.standardCharacters
            case .url: Base64.urlCharacters
            }
        }
    }

    private static let standardCharacters = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    private static let urlCharacters = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// `bytes` as base64 text in `alphabet`, ending in `=` to a multiple of four characters when `padded`.
    package static func encode(_ bytes: [UInt8], alphabet: Alphabet, padded: Bool) -> [UInt8] {
        let characters = alphabet.characters
        var out = [UInt8]()
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index + 3 <= bytes.count {
            let chunk = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
            out.append(characters[Int(chunk >> 18 & 63)])
            out.append(characters[Int(chunk >> 12 & 63)])
            out.append(characters[Int(chunk >> 6 & 63)])
            out.append(characters[Int(chunk & 63)])
            index += 3
        }
        switch bytes.count - index {
        case 1:
            let chunk = UInt32(bytes[index]) << 16
            out.append(characters[Int(chunk >> 18 & 63)])
            out.append(characters[Int(chunk >> 12 & 63)])
            if padded { out += [UInt8(ascii: "="), UInt8(ascii: "=")] }
        case 2:
            let chunk = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8
            out.append(characters[Int(chunk >> 18 & 63)])
            out.append(characters[Int(chunk >> 12 & 63)])
            out.append(characters[Int(chunk >> 6 & 63)])
            if padded { out.append(UInt8(ascii: "=")) }
        default:
            break
        }
        return out
    }
}
