import JSON

/// Base64url without padding (RFC 4648 §5), the encoding of every JWT segment.
public enum Base64URL {
    /// 0–63 for alphabet bytes, 0xFF for everything else.
    private static let values: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (index, byte) in Base64.Alphabet.url.characters.enumerated() { table[Int(byte)] = UInt8(index) }
        return table
    }()

    /// Encodes `bytes` without `=` padding, as JWS requires.
    public static func encode(_ bytes: [UInt8]) -> String {
        String(decoding: Base64.encode(bytes, alphabet: .url, padded: false), as: UTF8.self)
    }

    /// Decodes base64url text; returns nil for any byte outside the base64url alphabet or an
    /// impossible length. Trailing `=` padding is tolerated when it makes a multiple of four.
    public static func decode(_ s: Substring) -> [UInt8]? {
        decode(s.utf8)
    }

    /// Decodes base64url from UTF-8 code units; see `decode(_:)`.
    static func decode(_ text: Substring.UTF8View) -> [UInt8]? {
        var end = text.endIndex
        var padding = 0
        while end > text.startIndex, padding < 2, text[text.index(before: end)] == UInt8(ascii: "=") {
            end = text.index(before: end)
            padding += 1
        }
        let body = text[text.startIndex..<end]
        let count = body.count
        if padding > 0, (count + padding) % 4 != 0 { return nil }
        if count % 4 == 1 { return nil }

        let table = values
        var out = [UInt8]()
        out.reserveCapacity(count * 3 / 4)
        var accumulator: UInt32 = 0
        var bits = 0
        for byte in body {
            let value = table[Int(byte)]
            if value == 0xFF { return nil }
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
