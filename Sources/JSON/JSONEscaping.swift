/// JSON string literals (RFC 8259 §7), written in one place for every writer in the package: the tree's text
/// (`JSONValue.jsonText`), the record encoder, the JWT signer.
///
/// Escapes exactly what JSON requires — `"`, `\` and the control characters below 0x20 (with the short forms
/// `\n \r \t \b \f`) — and copies everything else, other Unicode included, as is. Runs of bytes that need no
/// escape (all of a typical field) are copied in one piece.
public enum JSONEscaping {
    /// Appends `text` as a quoted JSON string to `bytes`.
    public static func append(_ text: String, to bytes: inout [UInt8]) {
        withUTF8(of: text) { utf8 in
            // Most text needs no escape: copied between its quotes, with no scratch buffer.
            if !needsEscape(utf8) {
                bytes.append(UInt8(ascii: "\""))
                bytes.append(contentsOf: utf8)
                bytes.append(UInt8(ascii: "\""))
                return
            }
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: maximumQuotedCount(utf8Count: utf8.count)) { out in
                let written = writeQuoted(utf8, to: out.baseAddress!)
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: out[..<written]))
            }
        }
    }

    /// The most bytes `writeQuoted` writes for `utf8Count` bytes of text: six per byte (`\u00XX`) and two quotes.
    @inlinable
    public static func maximumQuotedCount(utf8Count: Int) -> Int {
        utf8Count * 6 + 2
    }

    /// Writes the UTF-8 text `utf8` as a quoted JSON string at `out`, which has room for
    /// `maximumQuotedCount(utf8Count: utf8.count)` bytes; returns how many it wrote. For writers that fill a buffer
    /// of their own (the record encoder) without a growth check per byte.
    public static func writeQuoted(_ utf8: UnsafeBufferPointer<UInt8>, to out: UnsafeMutablePointer<UInt8>) -> Int {
        out[0] = UInt8(ascii: "\"")
        var written = 1
        if let base = utf8.baseAddress, !utf8.isEmpty {
            if !needsEscape(utf8) {
                (out + written).update(from: base, count: utf8.count)
                written += utf8.count
            } else {
                var runStart = 0
                for index in 0..<utf8.count {
                    let byte = base[index]
                    guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                    (out + written).update(from: base + runStart, count: index - runStart)
                    written += index - runStart
                    written += escape(byte, to: out + written)
                    runStart = index + 1
                }
                (out + written).update(from: base + runStart, count: utf8.count - runStart)
                written += utf8.count - runStart
            }
        }
        out[written] = UInt8(ascii: "\"")
        return written + 1
    }

    /// Runs `body` on `text`'s UTF-8 in place (a native string's storage, a small string's stack copy).
    @inlinable
    public static func withUTF8<Result>(of text: String, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        if let result = text.utf8.withContiguousStorageIfAvailable(body) { return result }
        var text = text
        return text.withUTF8(body)
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
    /// and the same test on `w ^ c…` with 0x01 finds a byte equal to `c`. The last word is the text's last eight
    /// bytes (overlapping ones already tested: harmless for "is there any"), and a text shorter than eight bytes is
    /// tested as one word padded with spaces, so no byte is ever tested alone.
    static func needsEscape(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = utf8.baseAddress else { return false }
        let raw = UnsafeRawPointer(base)
        let count = utf8.count
        if count < 8 {
            var word: UInt64 = 0x2020_2020_2020_2020   // spaces: nothing to escape
            withUnsafeMutableBytes(of: &word) { padded in
                for offset in 0..<count { padded[offset] = base[offset] }
            }
            return wordNeedsEscape(word)
        }
        var offset = 0
        while offset + 8 < count {
            if wordNeedsEscape(raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) { return true }
            offset += 8
        }
        return wordNeedsEscape(raw.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self))
    }

    /// Whether any byte of `word` is below 0x20, `"` or `\\`.
    @inline(__always)
    private static func wordNeedsEscape(_ word: UInt64) -> Bool {
        JSONBytes.stringSpecialMarks(word) != 0
    }

    /// Writes the escape sequence for one byte that JSON does not allow raw in a string; returns its length.
    private static func escape(_ byte: UInt8, to out: UnsafeMutablePointer<UInt8>) -> Int {
        let short: UInt8
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): short = byte
        case 0x0A: short = UInt8(ascii: "n")
        case 0x0D: short = UInt8(ascii: "r")
        case 0x09: short = UInt8(ascii: "t")
        case 0x08: short = UInt8(ascii: "b")
        case 0x0C: short = UInt8(ascii: "f")
        default:
            let hex: StaticString = "0123456789abcdef"
            out[0] = 0x5C
            out[1] = UInt8(ascii: "u")
            out[2] = UInt8(ascii: "0")
            out[3] = UInt8(ascii: "0")
            out[4] = hex.utf8Start[Int(byte >> 4)]
            out[5] = hex.utf8Start[Int(byte & 0xF)]
            return 6
        }
        out[0] = 0x5C
        out[1] = short
        return 2
    }
}
