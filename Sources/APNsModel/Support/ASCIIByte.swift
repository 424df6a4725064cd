/// Byte classes the header and JSON rules need, on raw UTF-8 bytes (no `Character` work on hot paths).
/// A namespace rather than a `UInt8` extension so it cannot collide with helpers elsewhere in the module.
enum ASCIIByte {
    /// `0-9`, `a-f` or `A-F`.
    static func isHexDigit(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x61...0x66).contains(byte) || (0x41...0x46).contains(byte)
    }

    /// `0-9`.
    static func isDecimalDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }
}
