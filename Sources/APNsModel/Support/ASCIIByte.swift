/// Byte classes the header and payload rules need, on raw UTF-8 bytes (no `Character` work on hot paths).
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
        text.utf8.withContiguousStorageIfAvailable(isLowercaseASCII)
            ?? text.utf8.allSatisfy { $0 < 0x80 && !(0x41...0x5A).contains($0) }
    }

    /// `isLowercaseASCII` on bytes, eight at a time: a word passes when no byte has its high bit set and none is
    /// in `A`...`Z`. For a byte `x < 0x80`, `x + 0x3F` has its high bit set exactly when `x >= 0x41` and `x + 0x25`
    /// exactly when `x >= 0x5B`, and neither sum carries into the next byte.
    static func isLowercaseASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        func passes(_ word: UInt64) -> Bool {
            let highBits: UInt64 = 0x8080_8080_8080_8080
            let ones: UInt64 = 0x0101_0101_0101_0101
            guard word & highBits == 0 else { return false }
            return (word &+ ones &* 0x3F) & ~(word &+ ones &* 0x25) & highBits == 0
        }
        return allWords(bytes, passes)
    }

    /// Whether every byte is a hex digit (`isHexDigit`), eight at a time. With `y = x | 0x20` (upper-case letters
    /// to lower case), a byte below 0x80 is a hex digit when `x` is in `0`...`9` or `y` in `a`...`f`; for a byte
    /// below 0x80, `x + (0x80 - lo)` and `x + (0x7F - hi)` have their high bit set when `x >= lo` and `x > hi`,
    /// without carrying into the next byte.
    static func isHexDigits(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        func passes(_ word: UInt64) -> Bool {
            let highBits: UInt64 = 0x8080_8080_8080_8080
            let ones: UInt64 = 0x0101_0101_0101_0101
            guard word & highBits == 0 else { return false }
            let digit = (word &+ ones &* (0x80 - 0x30)) & ~(word &+ ones &* (0x7F - 0x39))
            let folded = word | ones &* 0x20
            let letter = (folded &+ ones &* (0x80 - 0x61)) & ~(folded &+ ones &* (0x7F - 0x66))
            return (digit | letter) & highBits == highBits
        }
        guard bytes.count >= 8 else { return bytes.allSatisfy(isHexDigit) }
        return allWords(bytes, passes)
    }

    /// Whether no byte is `/`, `?` or 0x80 and above (a device path's plain token), eight at a time: `x ^ c` is
    /// zero exactly for a byte equal to `c`, and `(z - ones) & ~z` marks a zero byte (the lowest exactly; a
    /// borrow only marks bytes above a real one, which cannot turn a passing word into a failing one).
    static func lacksSlashQueryAndHighBytes(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        func passes(_ word: UInt64) -> Bool {
            let highBits: UInt64 = 0x8080_8080_8080_8080
            let ones: UInt64 = 0x0101_0101_0101_0101
            let slash = word ^ ones &* UInt64(UInt8(ascii: "/"))
            let query = word ^ ones &* UInt64(UInt8(ascii: "?"))
            return (word | ((slash &- ones) & ~slash) | ((query &- ones) & ~query)) & highBits == 0
        }
        guard bytes.count >= 8 else {
            return !bytes.contains { $0 >= 0x80 || $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") }
        }
        return allWords(bytes, passes)
    }

    /// Whether every byte is ASCII, eight at a time.
    static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        allWords(bytes) { $0 & 0x8080_8080_8080_8080 == 0 }
    }

    /// Whether `test` holds for every eight-byte word of `bytes` (words may overlap; a buffer shorter than eight
    /// bytes is tested as one word padded with zero bytes). `test` must hold for a zero byte.
    @inline(__always)
    private static func allWords(_ bytes: UnsafeBufferPointer<UInt8>, _ test: (UInt64) -> Bool) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let raw = UnsafeRawPointer(base)
        let count = bytes.count
        if count < 8 {
            var word: UInt64 = 0
            for offset in 0..<count { word |= UInt64(raw.load(fromByteOffset: offset, as: UInt8.self)) << (8 * offset) }
            return test(word)
        }
        var offset = 0
        while offset + 8 < count {
            guard test(raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) else { return false }
            offset += 8
        }
        return test(raw.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self))
    }

    /// Whether `bytes` start with `prefix`'s bytes.
    @inline(__always)
    static func hasPrefix(_ bytes: UnsafeBufferPointer<UInt8>, _ prefix: StaticString) -> Bool {
        let count = prefix.utf8CodeUnitCount
        guard bytes.count >= count else { return false }
        return equalBytes(bytes.baseAddress!, prefix.utf8Start, count: count)
    }

    /// Whether `bytes` are exactly `literal`'s bytes.
    @inline(__always)
    static func equals(_ bytes: UnsafeBufferPointer<UInt8>, _ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard bytes.count == count else { return false }
        return count == 0 || equalBytes(bytes.baseAddress!, literal.utf8Start, count: count)
    }

    /// Whether `count` bytes at `a` and `b` are equal: by overlapping words of 8 (or 4) bytes when `count` allows.
    @inline(__always)
    static func equalBytes(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, count: Int) -> Bool {
        let x = UnsafeRawPointer(a), y = UnsafeRawPointer(b)
        if count >= 8 {
            var offset = 0
            while offset + 8 < count {
                guard x.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                    == y.loadUnaligned(fromByteOffset: offset, as: UInt64.self) else { return false }
                offset += 8
            }
            return x.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
                == y.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
        }
        if count >= 4 {
            return x.loadUnaligned(as: UInt32.self) == y.loadUnaligned(as: UInt32.self)
                && x.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
                    == y.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
        }
        for offset in 0..<count where a[offset] != b[offset] { return false }
        return true
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
