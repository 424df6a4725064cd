/// JSON string literals (RFC 8259 §7), written in one place for every writer in the package: the tree's text
/// (`JSONValue.jsonText`), the record encoder, the JWT signer.
///
/// Escapes exactly what JSON requires — `"`, `\` and the control characters below 0x20 (with the short forms
/// `\n \r \t \b \f`) — and copies everything else, other Unicode included, as is. Runs of bytes that need no
/// escape (all of a typical field) are copied in one piece.
public enum JSONEscaping {
    /// Appends `text` as a quoted JSON string to `bytes`.
    public static func append(_ text: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in
            guard needsEscape(utf8) else {
                bytes.append(contentsOf: utf8)
                return
            }
            var runStart = 0
            for index in utf8.indices {
                let byte = utf8[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
                escape(byte, to: &bytes)
                runStart = index + 1
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// `text` as a quoted JSON string.
    public static func quoted(_ text: String) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count + 2)
        append(text, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Whether any byte of `utf8` is `"`, `\\` or a control character, tested eight bytes at a time with the
    /// classic SWAR tests: `(w - 0x20…) & ~w & 0x80…` is non-zero exactly when some byte of `w` is below 0x20,
    /// and the same test on `w ^ c…` with 0x01 finds a byte equal to `c`.
    static func needsEscape(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highBits: UInt64 = 0x8080_8080_8080_8080
        func hasByteBelow(_ word: UInt64, _ limit: UInt8) -> Bool {
            (word &- ones &* UInt64(limit)) & ~word & highBits != 0
        }
        func hasByte(_ word: UInt64, _ byte: UInt8) -> Bool { hasByteBelow(word ^ (ones &* UInt64(byte)), 1) }

        guard let base = utf8.baseAddress else { return false }
        let raw = UnsafeRawPointer(base)
        var offset = 0
        while offset + 8 <= utf8.count {
            let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            if hasByteBelow(word, 0x20) || hasByte(word, UInt8(ascii: "\"")) || hasByte(word, UInt8(ascii: "\\")) {
                return true
            }
            offset += 8
        }
        while offset < utf8.count {
            let byte = utf8[offset]
            if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { return true }
            offset += 1
        }
        return false
    }

    private static let hex: [UInt8] = Array("0123456789abcdef".utf8)

    /// The escape sequence for one byte that JSON does not allow raw in a string.
    private static func escape(_ byte: UInt8, to bytes: inout [UInt8]) {
        let short: UInt8
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): short = byte
        case 0x0A: short = UInt8(ascii: "n")
        case 0x0D: short = UInt8(ascii: "r")
        case 0x09: short = UInt8(ascii: "t")
        case 0x08: short = UInt8(ascii: "b")
        case 0x0C: short = UInt8(ascii: "f")
        default:
            bytes.append(contentsOf: [0x5C, UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                                      hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
            return
        }
        bytes.append(0x5C)
        bytes.append(short)
    }
}
