/// The device-token format rule.
///
/// A token travels as the hex text of its bytes. Apple says not to assume a length (64 hex characters is
/// common, 108 and 160 have been seen), so the only checks are: non-empty, even length, hex digits only.
/// Case: Apple's examples are lowercase and what APNs does with upper case is not documented; we take the
/// lenient reading and accept both (pushy's mock does too).
public enum DeviceToken {
    /// Whether `token` is a well-formed device token: non-empty, an even number of hex digits, either case.
    public static func isValid(_ token: some StringProtocol) -> Bool {
        if let valid = token.utf8.withContiguousStorageIfAvailable({ bytes in
            !bytes.isEmpty && bytes.count % 2 == 0 && ASCIIByte.isHexDigits(bytes)
        }) {
            return valid
        }
        var count = 0
        for byte in token.utf8 {
            guard ASCIIByte.isHexDigit(byte) else { return false }
            count += 1
        }
        return count > 0 && count % 2 == 0
    }

    /// The token in lowercase, the form APNs documents and the registry should key on.
    public static func canonical(_ token: String) -> String { token.lowercased() }
}
