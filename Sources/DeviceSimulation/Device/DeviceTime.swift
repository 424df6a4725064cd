import APNsModel
/// Time arithmetic for the device model: every instant is milliseconds since 1970 (`Int64`, the unit of a record's
/// `received_at`), and every value read from the wire (`apns-expiration`, `stale-date`, `dismissal-date`, all in
/// seconds) is converted and added saturating, so a sender's huge or negative number cannot trap the server.
enum DeviceTime {
    /// One hour: the window of the background budget (device-rules §13).
    static let hour: Int64 = 3_600_000

    /// `seconds` as milliseconds, clamped to `Int64`'s range.
    static func millis(seconds: Int64) -> Int64 {
        let (product, overflow) = seconds.multipliedReportingOverflow(by: 1000)
        guard overflow else { return product }
        return seconds < 0 ? .min : .max
    }

    /// A JSON number of seconds (a fraction is allowed) as milliseconds, rounded down and clamped to `Int64`'s range;
    /// `nil` when it is not a finite number.
    static func millis(seconds: Double) -> Int64? {
        guard seconds.isFinite else { return nil }
        let millis = (seconds * 1000).rounded(.down)
        if millis >= 9.2e18 { return .max }
        if millis <= -9.2e18 { return .min }
        return Int64(millis)
    }

    /// A JSON value holding a number of seconds, as milliseconds; `nil` when it is not a finite number.
    static func millis(secondsValue value: JSONValue?) -> Int64? {
        if let whole = value?.integerValue { return millis(seconds: whole) }
        return value?.numberValue.flatMap { millis(seconds: $0) }
    }

    /// `time + duration`, clamped to `Int64`'s range.
    static func adding(_ duration: Int64, to time: Int64) -> Int64 {
        let (sum, overflow) = time.addingReportingOverflow(duration)
        guard overflow else { return sum }
        return duration < 0 ? .min : .max
    }
}

extension DeviceTime {
    /// A duration for a sentence: `30 days`, `4 h`, `90 min`, `60 s` or `250 ms`, in the largest unit that divides it.
    static func describe(_ millis: Int64) -> String {
        let units: [(Int64, String, String)] = [
            (24 * hour, "day", "days"), (hour, "h", "h"), (60_000, "min", "min"), (1000, "s", "s"),
        ]
        for (size, one, many) in units where millis != 0 && millis % size == 0 {
            let count = millis / size
            return "\(count) \(count == 1 ? one : many)"
        }
        return "\(millis) ms"
    }
}

extension DeviceTime {
    /// `later - earlier`, clamped to `Int64`'s range.
    static func difference(_ later: Int64, _ earlier: Int64) -> Int64 {
        let (result, overflow) = later.subtractingReportingOverflow(earlier)
        guard overflow else { return result }
        return earlier < 0 ? .max : .min
    }
}
