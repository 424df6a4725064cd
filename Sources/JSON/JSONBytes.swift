/// The byte tests the parser, validator and escaper share.
enum JSONBytes {
    /// The high bit of each byte of `word` (eight string bytes, loaded little-endian) that a JSON string cannot
    /// hold raw: below 0x20, `"` or `\\`. Each test is the classic `(x - n·ones) & ~x & highBits`, which marks a
    /// byte below `n` (on `word ^ c·ones` with `n = 1`, a byte equal to `c`); a borrow can mark a byte above a true
    /// match but never below one, so the lowest mark is exactly the first such byte. The JSON parser, its
    /// yes/no validator and the escaper all skip plain string bytes with this one test.
    @inline(__always)
    static func stringSpecialMarks(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let quote = word ^ (ones &* UInt64(UInt8(ascii: "\"")))
        let backslash = word ^ (ones &* UInt64(UInt8(ascii: "\\")))
        return (((word &- ones &* 0x20) & ~word) | ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash))
            & 0x8080_8080_8080_8080
    }

    /// `0-9`.
    static func isDecimalDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }
}
