/// Byte classes the header and JSON rules need, on raw UTF-8 bytes (no `Character` work on hot paths).
/// A namespace rather than a `UInt8` extension so it cannot collide with helpers elsewhere in the module.
enum ASCIIByte {
    /// `0-9`, `a-f` or `A-F`.
    static func isHexDigit(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x61...0x66).contains(byte) || (0x41...0x46).contains(byte)
    }

    /// `0-9`.
    static func isDecimalDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }

    /// Whether every byte of `text` is ASCII. For such text a `Character` is one byte (except `\r\n`, which
    /// no caller's pattern contains), so byte comparisons give the same answers as `String`'s Unicode-aware
    /// ones; callers use this to choose a byte fast path and keep the `String` path for everything else.
    static func isASCII(_ text: some StringProtocol) -> Bool {
        text.utf8.withContiguousStorageIfAvailable { $0.allSatisfy { $0 < 0x80 } }
            ?? text.utf8.allSatisfy { $0 < 0x80 }
    }

    /// Whether `text` is ASCII with no upper-case letter, i.e. `text.lowercased() == text` without building a
    /// new string (HTTP/2 header names always are).
    static func isLowercaseASCII(_ text: String) -> Bool {
        text.utf8.withContiguousStorageIfAvailable { bytes in
            bytes.allSatisfy { $0 < 0x80 && !(0x41...0x5A).contains($0) }
        } ?? text.utf8.allSatisfy { $0 < 0x80 && !(0x41...0x5A).contains($0) }
    }

    /// `text.lowercased()`, without building a new string when `text` is already lowercase ASCII.
    static func lowercased(_ text: String) -> String {
        isLowercaseASCII(text) ? text : text.lowercased()
    }

    /// Whether `text`'s UTF-8 bytes start with `prefix`'s. Equal to `String.hasPrefix` when `text` is ASCII.
    static func hasPrefix(_ text: some StringProtocol, _ prefix: StaticString) -> Bool {
        let count = prefix.utf8CodeUnitCount
        guard text.utf8.count >= count else { return false }
        return prefix.withUTF8Buffer { text.utf8.starts(with: $0) }
    }
}
