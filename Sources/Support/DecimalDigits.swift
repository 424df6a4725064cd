/// The decimal digits of an integer, written without building a `String`: for writers that put a number or more
/// into every record they send (the store's COPY rows, the live stream's event ids).
public enum DecimalDigits {
    /// Calls `body` with the ASCII digits of `value`, valid only during the call. Inlinable: the callers write digits
    /// on hot paths, and a call across the module with a closure costs as much as the digits.
    @inlinable
    public static func withDigits<Result>(of value: UInt64, _ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try withDigits(magnitude: value, negative: false, body)
    }

    /// Calls `body` with the ASCII digits of `value` (after a `-` when it is negative), valid only during the call.
    @inlinable
    public static func withDigits<Result>(of value: Int64, _ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try withDigits(magnitude: value.magnitude, negative: value < 0, body)
    }

    @inlinable
    static func withDigits<Result>(magnitude: UInt64, negative: Bool,
                                           _ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        // A sign and UInt64.max's 20 digits.
        try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 21) { digits in
            var rest = magnitude
            var start = digits.count
            repeat {
                start -= 1
                digits[start] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            } while rest > 0
            if negative {
                start -= 1
                digits[start] = UInt8(ascii: "-")
            }
            return try body(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(digits)[start...]))
        }
    }
}
