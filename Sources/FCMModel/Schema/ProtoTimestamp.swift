/// The JSON form of a `google.protobuf.Timestamp` (RFC 3339), as `android.notification.event_time` carries it:
/// `2026-05-01T12:30:00Z`, `2026-05-01T12:30:00.123456Z`, `2026-05-01T14:30:00+02:00` (fcm-rules §3.9).
///
/// Only the shape and the ranges of each part are checked (month 1–12, day 1–31, hour 0–23, minute 0–59, second
/// 0–60, one to nine fraction digits, an offset within ±23:59); the mock reads nothing else from the time.
enum ProtoTimestamp {
    /// Whether `text` is a timestamp in the JSON form.
    static func isValid(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        var index = 0
        func number(_ count: Int, in range: ClosedRange<Int>) -> Bool {
            guard index + count <= bytes.count else { return false }
            var value = 0
            for offset in 0..<count {
                let byte = bytes[index + offset]
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return false }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            index += count
            return range.contains(value)
        }
        func literal(_ byte: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }
        guard number(4, in: 1...9999), literal(UInt8(ascii: "-")), number(2, in: 1...12), literal(UInt8(ascii: "-")),
              number(2, in: 1...31), literal(UInt8(ascii: "T")) || literal(UInt8(ascii: "t")),
              number(2, in: 0...23), literal(UInt8(ascii: ":")), number(2, in: 0...59), literal(UInt8(ascii: ":")),
              number(2, in: 0...60) else { return false }
        if literal(UInt8(ascii: ".")) {
            var digits = 0
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
                digits += 1
                index += 1
            }
            guard (1...9).contains(digits) else { return false }
        }
        if literal(UInt8(ascii: "Z")) || literal(UInt8(ascii: "z")) { return index == bytes.count }
        guard literal(UInt8(ascii: "+")) || literal(UInt8(ascii: "-")) else { return false }
        guard number(2, in: 0...23), literal(UInt8(ascii: ":")), number(2, in: 0...59) else { return false }
        return index == bytes.count
    }
}
