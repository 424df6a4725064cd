/// The package's one base64 encoder and decoder (RFC 4648), without Foundation: the standard alphabet with padding
/// for the `payload_base64` of a record whose body is not JSON, a channel id and a Basic authorization, and the URL
/// alphabet without padding for JWT segments (base64url-encoded JSON).
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

    /// Whether decoding asks for `=` padding.
    package enum Padding: Sendable {
        /// `=` to a multiple of four characters (RFC 4648 §3.2), as the standard alphabet writes it.
        case required
        /// None (as JWS writes base64url), or exactly the one or two `=` that make a multiple of four.
        case optional
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

    /// `bytes` as base64 text in `alphabet` (``encode(_:alphabet:padded:)``), as a string.
    package static func encodedString(_ bytes: [UInt8], alphabet: Alphabet, padded: Bool) -> String {
        String(decoding: encode(bytes, alphabet: alphabet, padded: padded), as: UTF8.self)
    }

    /// 0–63 for each alphabet's characters, 0xFF for every other byte.
    private static let standardValues = values(of: standardCharacters)
    private static let urlValues = values(of: urlCharacters)

    private static func values(of characters: [UInt8]) -> [UInt8] {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (index, byte) in characters.enumerated() { table[Int(byte)] = UInt8(index) }
        return table
    }

    /// The bytes base64 `text` in `alphabet` stands for, or nil when it is not base64: a byte outside the alphabet
    /// (whitespace and the other alphabet's two characters included), `=` anywhere but as the one or two last
    /// characters, padding `padding` does not allow or that does not make a multiple of four, or a length no bytes
    /// encode to (a multiple of four plus one). The bits past the last whole byte are not checked (as neither the
    /// JWT reader nor Foundation's `Data(base64Encoded:)` did): `Zh==` is `f` like `Zg==`.
    package static func decode<Text: BidirectionalCollection>(_ text: Text, alphabet: Alphabet, padding: Padding) -> [UInt8]?
        where Text.Element == UInt8 {
        var end = text.endIndex
        var padded = 0
        while padded < 2, end > text.startIndex, text[text.index(before: end)] == UInt8(ascii: "=") {
            end = text.index(before: end)
            padded += 1
        }
        let count = text.distance(from: text.startIndex, to: end)
        switch padding {
        case .required: guard (count + padded) % 4 == 0 else { return nil }
        case .optional: guard padded == 0 || (count + padded) % 4 == 0 else { return nil }
        }
        guard count % 4 != 1 else { return nil }
        let table = alphabet == .standard ? standardValues : urlValues
        var out = [UInt8]()
        out.reserveCapacity(count / 4 * 3 + 2)
        var accumulator: UInt32 = 0
        var bits = 0
        for byte in text[text.startIndex..<end] {
            let value = table[Int(byte)]
            guard value != 0xFF else { return nil }
            accumulator = accumulator << 6 | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
            }
        }
        return out
    }
}
