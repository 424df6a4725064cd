#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Wall-clock and monotonic time in the units records use, and the ISO-8601 form of `received_at`.
///
/// Written out by hand because Foundation's `ISO8601DateFormatter` costs far more per call than a record
/// is allowed to, and records are written at the rate of the server.
public enum Timestamp {
    /// Milliseconds since the Unix epoch, now.
    public static func nowMillis() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Int64(ts.tv_sec) * 1000 + Int64(ts.tv_nsec) / 1_000_000
    }

    /// Seconds since the Unix epoch, now.
    public static func nowSeconds() -> Int64 { nowMillis() / 1000 }

    /// A monotonic clock in nanoseconds, for durations.
    public static func monotonicNanos() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
    }

    /// `2026-11-23T12:00:00.123Z` for a time in epoch milliseconds (UTC).
    public static func iso8601(millis: Int64) -> String {
        var seconds = time_t(millis / 1000)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func pad(_ v: Int32, _ width: Int) -> String {
            let s = String(v)
            return String(repeating: "0", count: max(0, width - s.count)) + s
        }
        return "\(pad(parts.tm_year + 1900, 4))-\(pad(parts.tm_mon + 1, 2))-\(pad(parts.tm_mday, 2))T"
            + "\(pad(parts.tm_hour, 2)):\(pad(parts.tm_min, 2)):\(pad(parts.tm_sec, 2)).\(pad(Int32(millis % 1000), 3))Z"
    }

    /// Parses the form `iso8601(millis:)` writes (also without fraction), or nil.
    public static func parseISO8601(_ text: String) -> Int64? {
        let bytes = Array(text.utf8)
        func number(_ from: Int, _ count: Int) -> Int32? {
            guard from + count <= bytes.count else { return nil }
            var v: Int32 = 0
            for b in bytes[from..<(from + count)] {
                guard b >= 48, b <= 57 else { return nil }
                v = v * 10 + Int32(b - 48)
            }
            return v
        }
        guard bytes.count >= 20, let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
              let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2) else { return nil }
        var millis: Int64 = 0
        if bytes.count >= 24, bytes[19] == UInt8(ascii: "."), let ms = number(20, 3) { millis = Int64(ms) }
        var parts = tm()
        parts.tm_year = year - 1900
        parts.tm_mon = month - 1
        parts.tm_mday = day
        parts.tm_hour = hour
        parts.tm_min = minute
        parts.tm_sec = second
        let seconds = timegm(&parts)
        return Int64(seconds) * 1000 + millis
    }
}
