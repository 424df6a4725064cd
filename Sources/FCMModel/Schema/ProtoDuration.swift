/// A `google.protobuf.Duration` in its JSON form: an optional `-`, whole seconds, an optional fraction of one to nine
/// digits, and `s` — `"3s"`, `"3.5s"`, `"0.000000001s"`, `"-1.5s"` (fcm-rules §3.9).
///
/// The text comes from the wire, so nothing here traps: the seconds are read digit by digit with checked
/// arithmetic and must lie within protobuf's range, ±315 576 000 000 s (10 000 years).
public struct ProtoDuration: Sendable, Hashable, CustomStringConvertible {
    /// Whole seconds; negative for a negative duration.
    public var seconds: Int64
    /// The fraction in nanoseconds, 0…999 999 999, with the sign of `seconds` (as protobuf stores it).
    public var nanos: Int32

    /// The largest magnitude protobuf allows, in seconds.
    public static let maximumSeconds: Int64 = 315_576_000_000

    /// Makes a duration.
    public init(seconds: Int64, nanos: Int32 = 0) {
        self.seconds = seconds
        self.nanos = nanos
    }

    /// Parses the JSON form; `nil` when `text` is not one.
    public init?(_ text: String) {
        var bytes = Array(text.utf8)
        guard bytes.last == UInt8(ascii: "s") else { return nil }
        bytes.removeLast()
        var negative = false
        if bytes.first == UInt8(ascii: "-") {
            negative = true
            bytes.removeFirst()
        }
        let dot = bytes.firstIndex(of: UInt8(ascii: "."))
        let whole = bytes[..<(dot ?? bytes.endIndex)]
        guard !whole.isEmpty else { return nil }
        var seconds: Int64 = 0
        for byte in whole {
            guard let digit = Self.digit(byte) else { return nil }
            let (times, overflow1) = seconds.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times.addingReportingOverflow(digit)
            guard !overflow1, !overflow2 else { return nil }
            seconds = sum
        }
        guard seconds <= Self.maximumSeconds else { return nil }
        var nanos: Int32 = 0
        if let dot {
            let fraction = bytes[bytes.index(after: dot)...]
            guard (1...9).contains(fraction.count) else { return nil }
            var scale: Int32 = 100_000_000
            for byte in fraction {
                guard let digit = Self.digit(byte) else { return nil }
                nanos += Int32(digit) * scale
                scale /= 10
            }
        }
        self.seconds = negative ? -seconds : seconds
        self.nanos = negative ? -nanos : nanos
    }

    /// Whether it is below zero.
    public var isNegative: Bool { seconds < 0 || nanos < 0 }

    /// The whole seconds, the fraction dropped (FCM rounds a `ttl` down to the second).
    public var wholeSeconds: Int64 { seconds }

    /// The JSON form, with 0, 3, 6 or 9 fraction digits as protobuf writes it.
    public var description: String {
        let sign = isNegative ? "-" : ""
        let magnitude = seconds.magnitude
        let fraction = nanos.magnitude
        guard fraction != 0 else { return "\(sign)\(magnitude)s" }
        var digits = String(fraction)
        digits = String(repeating: "0", count: 9 - digits.count) + digits
        while digits.count > 3, digits.hasSuffix("000") { digits.removeLast(3) }
        return "\(sign)\(magnitude).\(digits)s"
    }

    private static func digit(_ byte: UInt8) -> Int64? {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) ? Int64(byte - UInt8(ascii: "0")) : nil
    }
}
